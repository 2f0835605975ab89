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
		return i, a.at(i)
	}
	if a.next == 0 {
		a.next = 1
	}
	i := a.next
	a.next++
	a.grow(i)
	return i, a.at(i)
}

// release zeroes value i, which nothing holds any more, for reuse.
func (a *arena[T]) release(i int32) {
	var zero T
	*a.at(i) = zero
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

// stack is a stack of numbers other than 0 in blocks that never move: a
// slice grown by append would copy itself into fresh memory each time it
// doubles, and a million-order simulation gives back a million numbers.
type stack struct {
	blocks [][]int32 // full but the last; blocks[:used] hold numbers
	used   int
}

const stackBlock = 4096

func (s *stack) push(i int32) {
	if s.used == 0 || len(s.blocks[s.used-1]) == stackBlock {
		if s.used == len(s.blocks) {
			s.blocks = append(s.blocks, make([]int32, 0, stackBlock))
		}
		s.used++
	}
	b := &s.blocks[s.used-1]
	*b = append(*b, i)
}

// pop returns the number pushed last, 0 when the stack is empty.
func (s *stack) pop() int32 {
	if s.used == 0 {
		return 0
	}
	b := &s.blocks[s.used-1]
	i := (*b)[len(*b)-1]
	if *b = (*b)[:len(*b)-1]; len(*b) == 0 {
		s.used-- // the block stays for the next pushes
	}
	return i
}

func (s *stack) len() int {
	if s.used == 0 {
		return 0
	}
	return (s.used-1)*stackBlock + len(s.blocks[s.used-1])
}
