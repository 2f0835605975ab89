// Package requeststore holds the requests of many orders compactly, for
// the simulator and the work/span analysis, which keep the requests of
// every order they hold (millions at once, when a divide and conquer or
// a pipeline holds every order) and read them one at a time.
//
// An order names its requests by a List, a number and a count, instead
// of holding a slice: the arrays that hold orders then hold no pointer
// for the garbage collector to scan, a request takes 16 bytes instead of
// ordertrace.Request's 24, and a finished order's requests are reused at
// once (a slab of a reader's lived as long as its last order).
//
// A list of n requests takes a run of the next power of two ≥ n slots,
// aligned on its size, so that no run crosses the boundary of a chunk
// (a chunked.Array splits at multiples of 1024), and freed runs are
// reused by size. A list longer than the largest run (a master's
// requests of its tasks), or one whose numbers do not fit a slot, is
// kept as its own slice.
package requeststore

import (
	"math"
	"math/bits"

	"github.com/presage-dvm/presage/sim/internal/chunked"
	"github.com/presage-dvm/presage/sim/ordertrace"
)

// Store holds lists of requests. The zero Store is empty.
type Store struct {
	slots chunked.Array[slot]
	top   int32                         // slots below are handed out or free
	free  [maxRunBits + 1]chunked.Stack // freed runs by size class, numbered run start + 1
	long  chunked.Arena[[]ordertrace.Request]
}

// maxRunBits is the largest run's size class: 1,024 requests.
const maxRunBits = chunked.FirstBits

// slot is a request in 16 bytes: the slots of the orders a FIFO queue
// holds were 360 MB of a 10M-order simulation as ordertrace.Requests,
// and every byte of fresh memory costs the kernel's zeroing.
type slot struct {
	at     float64
	order  uint32
	result int32
}

// Keeps reports whether Add keeps the list r as it is rather than
// copying it into slots: a list longer than the largest run, or one with
// a request that does not fit a slot. Its reader must then not decode
// the next order into r's memory.
func Keeps(r []ordertrace.Request) bool {
	if len(r) > 1<<maxRunBits {
		return true
	}
	for _, q := range r {
		if uint64(q.Order) > math.MaxUint32 || q.Result < 0 || q.Result > math.MaxInt32 {
			return true
		}
	}
	return false
}

// List names an order's requests in a Store; the zero List is empty.
type List struct {
	at int32 // the run's first slot, or minus the number of its slice in long
	n  int32
}

// Len returns the number of requests of l.
func (l List) Len() int32 { return l.n }

// Add files the requests r and returns their list: it copies a short
// list and keeps a long one as it is, without writing to it (a master's
// list of its tasks is not worth a copy).
func (s *Store) Add(r []ordertrace.Request) List {
	n := int32(len(r))
	switch {
	case n == 0:
		return List{}
	case Keeps(r):
		i, l := s.long.Alloc()
		*l = r
		return List{at: -i, n: n}
	}
	at := s.run(sizeClass(n))
	for i, q := range r {
		*s.slots.At(at + int32(i)) = slot{at: q.At, order: uint32(q.Order), result: int32(q.Result)}
	}
	return List{at: at, n: n}
}

// Get returns request i of list l.
func (s *Store) Get(l List, i int32) ordertrace.Request {
	if l.at < 0 {
		return (*s.long.At(-l.at))[i]
	}
	q := s.slots.At(l.at + i)
	return ordertrace.Request{Order: int64(q.order), Result: int(q.result), At: q.at}
}

// Release gives back list l's slots.
func (s *Store) Release(l List) {
	switch {
	case l.n == 0:
	case l.at < 0:
		*s.long.At(-l.at) = nil
		s.long.Recycle(-l.at)
	default:
		s.free[sizeClass(l.n)].Push(l.at + 1)
	}
}

// run returns the first slot of a free run of 2^k slots.
func (s *Store) run(k int) int32 {
	if at := s.free[k].Pop(); at != 0 {
		return at - 1
	}
	// Align the top on the run's size, filing the slots skipped as free
	// runs of the sizes they are aligned on.
	for size := int32(1) << k; s.top%size != 0; {
		j := bits.TrailingZeros32(uint32(s.top))
		s.free[j].Push(s.top + 1)
		s.top += 1 << j
	}
	at := s.top
	s.top += 1 << k
	s.slots.Grow(s.top - 1)
	return at
}

// sizeClass returns the k of the smallest 2^k ≥ n, for n ≥ 1.
func sizeClass(n int32) int { return bits.Len32(uint32(n - 1)) }

// Memory is the memory of a Store's slots, handed on from a finished
// Store to a new one, which then takes no fresh memory for as many
// slots: a slot is overwritten whole when handed out, so what the new
// Store finds in them is never read.
type Memory struct{ slots chunked.Array[slot] }

// Leave returns s's memory; s must not be used after.
func (s *Store) Leave() Memory { return Memory{s.slots} }

// Adopt has s, still empty, use m.
func (s *Store) Adopt(m Memory) { s.slots = m.slots }
