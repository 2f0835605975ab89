package chunked

import "iter"

// Arena hands out values of T by number, number 0 meaning none. It grows
// by chunks that never move, so a *T stays valid while its number is
// held, and it reuses the numbers given back: its memory follows the
// peak number of values held at once, not the number ever handed out.
// Values hold numbers rather than pointers to each other, so an arena of
// pointer-free values costs the garbage collector nothing to scan.
type Arena[T any] struct {
	Array[T]
	next int32 // the number the arena hands out when nothing was given back
	free Stack
}

// Alloc returns a value and its number: zeroed unless its last holder
// gave it back by Recycle, or the arena took over an earlier user's
// Array.
func (a *Arena[T]) Alloc() (int32, *T) {
	if i := a.free.Pop(); i != 0 {
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

// Release zeroes value i, which nothing holds any more, for reuse.
func (a *Arena[T]) Release(i int32) {
	var zero T
	*a.At(i) = zero
	a.free.Push(i)
}

// Recycle gives back value i without zeroing it, for values that the
// next Alloc's caller overwrites, reusing the memory they point to if it
// likes: zeroing would bring back into the cache a value nobody reads.
func (a *Arena[T]) Recycle(i int32) { a.free.Push(i) }

// Held returns the number of values handed out and not given back.
func (a *Arena[T]) Held() int {
	if a.next == 0 {
		return 0
	}
	return int(a.next) - 1 - a.free.Len()
}

// Given returns the numbers given back and not handed out again.
func (a *Arena[T]) Given() iter.Seq[int32] { return a.free.All() }

// Stack is a stack of numbers other than 0 in an Array: a slice grown by
// append would copy itself into fresh memory each time it doubles, and a
// million-order simulation gives back a million numbers.
type Stack struct {
	nums Array[int32]
	n    int32
}

// Push pushes i.
func (s *Stack) Push(i int32) {
	s.nums.Grow(s.n)
	*s.nums.At(s.n) = i
	s.n++
}

// Pop returns the number pushed last, 0 when the stack is empty.
func (s *Stack) Pop() int32 {
	if s.n == 0 {
		return 0
	}
	s.n--
	return *s.nums.At(s.n)
}

// Len returns the number of numbers on the stack.
func (s *Stack) Len() int { return int(s.n) }

// All yields the numbers on the stack, the one pushed first first.
func (s *Stack) All() iter.Seq[int32] {
	return func(yield func(int32) bool) {
		for k := range s.n {
			if !yield(*s.nums.At(k)) {
				return
			}
		}
	}
}
