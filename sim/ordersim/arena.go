package ordersim

// arena hands out values of T by number, number 0 meaning none. It grows
// by chunks that never move, so a *T stays valid while its number is
// held, and it reuses the numbers given back: its memory follows the
// peak number of values held at once, not the number ever handed out.
// Values hold numbers rather than pointers to each other, so an arena of
// pointer-free values costs the garbage collector nothing to scan.
type arena[T any] struct {
	chunks[T]
	next int32 // the number the arena hands out when nothing was given back
	free stack
}

// alloc returns a value and its number: zeroed unless its last holder
// gave it back by recycle, or the arena adopted the chunks of an earlier
// simulation (memory.go).
func (a *arena[T]) alloc() (int32, *T) {
	if i := a.free.pop(); i != 0 {
		return i, a.At(i)
	}
	if a.next == 0 {
		a.next = 1
	}
	i := a.next
	a.next++
	a.Grow(i)
	return i, a.At(i)
}

// release zeroes value i, which nothing holds any more, for reuse.
func (a *arena[T]) release(i int32) {
	var zero T
	*a.At(i) = zero
	a.free.push(i)
}

// recycle gives back value i without zeroing it, for values that hold
// no pointer and that the next alloc overwrites whole: zeroing would
// bring back into the cache a value nobody reads.
func (a *arena[T]) recycle(i int32) { a.free.push(i) }

// held returns the number of values handed out and not given back.
func (a *arena[T]) held() int {
	if a.next == 0 {
		return 0
	}
	return int(a.next) - 1 - a.free.len()
}

// stack is a stack of numbers other than 0 in an array that never moves
// (chunks): a slice grown by append would copy itself into fresh memory
// each time it doubles, and a million-order simulation gives back a
// million numbers.
type stack struct {
	nums chunks[int32]
	n    int32
}

func (s *stack) push(i int32) {
	s.nums.Grow(s.n)
	*s.nums.At(s.n) = i
	s.n++
}

// pop returns the number pushed last, 0 when the stack is empty.
func (s *stack) pop() int32 {
	if s.n == 0 {
		return 0
	}
	s.n--
	return *s.nums.At(s.n)
}

func (s *stack) len() int { return int(s.n) }
