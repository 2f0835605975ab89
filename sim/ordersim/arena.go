package ordersim

const chunkBits = 10

// arena hands out values of T by number, number 0 meaning none. It grows
// by chunks that never move, so a *T stays valid while its number is
// held, and it reuses the numbers given back: its memory follows the
// peak number of values held at once, not the number ever handed out.
// Values hold numbers rather than pointers to each other, so an arena of
// pointer-free values costs the garbage collector nothing to scan.
type arena[T any] struct {
	chunks []*[1 << chunkBits]T
	next   int32 // the number the arena hands out when nothing was given back
	free   []int32
}

func (a *arena[T]) at(i int32) *T { return &a.chunks[i>>chunkBits][i&(1<<chunkBits-1)] }

// alloc returns a value and its number: zeroed unless its last holder
// gave it back by recycle.
func (a *arena[T]) alloc() (int32, *T) {
	if n := len(a.free); n > 0 {
		i := a.free[n-1]
		a.free = a.free[:n-1]
		return i, a.at(i)
	}
	if a.next == 0 {
		a.next = 1
	}
	i := a.next
	a.next++
	if int(i>>chunkBits) == len(a.chunks) {
		a.chunks = append(a.chunks, new([1 << chunkBits]T))
	}
	return i, a.at(i)
}

// release zeroes value i, which nothing holds any more, for reuse.
func (a *arena[T]) release(i int32) {
	var zero T
	*a.at(i) = zero
	a.free = append(a.free, i)
}

// recycle gives back value i without zeroing it, for values that hold
// no pointer and that the next alloc overwrites whole: zeroing would
// bring back into the cache a value nobody reads.
func (a *arena[T]) recycle(i int32) { a.free = append(a.free, i) }

// held returns the number of values handed out and not given back.
func (a *arena[T]) held() int {
	if a.next == 0 {
		return 0
	}
	return int(a.next) - 1 - len(a.free)
}
