package ordertrace

import (
	"github.com/presage-dvm/presage/sim/internal/chunked"
	"github.com/presage-dvm/presage/sim/internal/idtable"
)

// pendingRequest is a request for an order not read yet.
// Its line is the first line of order from (checker.lineOf): 24 bytes
// where a master's ten million wait for their tasks.
type pendingRequest struct {
	from   int64
	at     float64
	result int32 // checkRequests refuses a larger index
	next   int32 // the next request for the same order, -1 at the end
}

// pendingSet holds the requests for orders not read yet, chained per
// target in an array that never moves and whose freed entries are
// reused: remembering a request costs no allocation once the set has
// grown to its peak, and growing copies nothing (a divide and conquer
// keeps a pending request for every order read, and a slice doubling to
// hold them spent a tenth of ingest's time copying itself).
type pendingSet struct {
	first   idtable.Table[int32]          // target id → its first request + 1
	entries chunked.Array[pendingRequest] // entries[:n] used or free
	n       int32                         // entries ever used
	free    int32                         // first free entry, -1 when none
}

func (s *pendingSet) at(i int32) *pendingRequest { return s.entries.At(i) }

func newPendingSet() pendingSet { return pendingSet{free: -1} }

// add remembers p as a request for target.
func (s *pendingSet) add(target int64, p pendingRequest) {
	p.next = s.first.Get(target) - 1
	i := s.free
	if i >= 0 {
		s.free = s.at(i).next
	} else {
		i = s.n
		s.n++
		s.entries.Grow(i)
	}
	*s.at(i) = p
	s.first.Set(target, i+1)
}

// take removes the requests for target and calls f with each one, in no
// particular order, stopping at f's first error.
func (s *pendingSet) take(target int64, f func(p pendingRequest) error) error {
	i := s.first.Get(target) - 1
	if i < 0 {
		return nil
	}
	s.first.Delete(target)
	var err error
	for i >= 0 {
		e := s.at(i)
		p := *e
		e.next, s.free = s.free, i
		if err == nil {
			err = f(p)
		}
		i = p.next
	}
	return err
}

// earliest returns the remembered request from the earliest order (on
// the earliest line) and its target; ok is false when none is left.
func (s *pendingSet) earliest() (p pendingRequest, target int64, ok bool) {
	s.first.Each(func(t int64, head int32) {
		for i := head - 1; i >= 0; i = s.at(i).next {
			if q := *s.at(i); !ok || q.from < p.from {
				p, target, ok = q, t, true
			}
		}
	})
	return p, target, ok
}
