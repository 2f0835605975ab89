package ordersim

import (
	"math"
	"math/bits"

	"github.com/presage-dvm/presage/sim/chunked"
	"github.com/presage-dvm/presage/sim/ordertrace"
)

// requestStore holds the requests of the orders read and not finished,
// copied from their lines, so that a live order names its requests by a
// number instead of holding a slice: the arena of live orders then holds
// no pointer for the garbage collector to scan, and a finished order's
// requests are reused at once (a slab of the reader's lived as long as
// its last order).
//
// A list of n requests takes a run of the next power of two ≥ n slots,
// aligned on its size, so that no run crosses the boundary of a chunk
// (a chunked.Array splits at multiples of 1024), and freed runs are reused by
// size. A list longer than the largest run (a master's requests of its
// tasks), or one whose numbers do not fit a slot, is kept as its own
// slice in long.
type requestStore struct {
	slots chunked.Array[slot]
	top   int32                         // slots below are handed out or free
	free  [maxRunBits + 1]chunked.Stack // freed runs by size class, numbered run start + 1
	long  chunked.Arena[[]ordertrace.Request]
}

// maxRunBits is the largest run's size class: 1,024 requests.
const maxRunBits = chunked.FirstBits

// slot is a request in 16 bytes instead of ordertrace.Request's 24: the
// slots of the orders a FIFO queue holds were 360 MB of a 10M-order
// simulation, and every byte of fresh memory costs the kernel's zeroing.
type slot struct {
	at     float64
	order  uint32
	result int32
}

// keeps reports whether add keeps the list r as it is rather than
// copying it into slots: a list longer than the largest run, or one with
// a request that does not fit a slot. Its reader must then not decode
// the next line into r's memory.
func keeps(r []ordertrace.Request) bool {
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

// requestList names an order's requests in a requestStore.
type requestList struct {
	at int32 // the run's first slot, or minus the number of its slice in long
	n  int32
}

// add files the requests r and returns their list: it copies a short
// list and keeps a long one as it is, without writing to it (a master's
// list of its tasks is not worth a copy).
func (s *requestStore) add(r []ordertrace.Request) requestList {
	n := int32(len(r))
	switch {
	case n == 0:
		return requestList{}
	case keeps(r):
		i, l := s.long.Alloc()
		*l = r
		return requestList{at: -i, n: n}
	}
	at := s.run(sizeClass(n))
	for i, q := range r {
		*s.slots.At(at + int32(i)) = slot{at: q.At, order: uint32(q.Order), result: int32(q.Result)}
	}
	return requestList{at: at, n: n}
}

// get returns request i of list l.
func (s *requestStore) get(l requestList, i int32) ordertrace.Request {
	if l.at < 0 {
		return (*s.long.At(-l.at))[i]
	}
	q := s.slots.At(l.at + i)
	return ordertrace.Request{Order: int64(q.order), Result: int(q.result), At: q.at}
}

// release gives back list l's slots.
func (s *requestStore) release(l requestList) {
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
func (s *requestStore) run(k int) int32 {
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
