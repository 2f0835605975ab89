package workspan

import (
	"fmt"
	"math"
	"math/bits"
	"sort"

	"github.com/presage-dvm/presage/sim/chunked"
	"github.com/presage-dvm/presage/sim/idtable"
	"github.com/presage-dvm/presage/sim/ordertrace"
)

// schedule places the orders of a trace as soon as possible on unlimited
// computers, in both lanes of times.
//
// Order o's real time at own moment t is t + offset(t), where offset is
// its start, raised by every wait before t: a request at own moment a for
// a result available at A raises it to A - a. So an order is known by its
// start and the steps where its offset rose; a child's start needs the
// parent's offset at the moment of making it, a request needs the
// provider's result times. At equal own moments, makes come before
// requests and requests before results (docs/orders.md).
//
// Orders arrive in creation order but their times do not: a parent's
// request may name a child that comes later, a child's start may need a
// parent's request resolved by a later order. So an order runs through
// its requests while their results are known and otherwise waits, in
// waiters, for the provider; a child read before its parent got to the
// moment of making it waits in the parent's kids.
//
// What a finished order keeps (start, steps, result times) is 56 bytes
// plus 16 per result and 24 per wait. Without the trace's counts, any
// later order may still make children of it or request its results, so
// it keeps them to the end. With them, it keeps them until its last child
// is read and its last request resolved, and steps only if it makes
// children: memory follows the orders still needed.
type schedule struct {
	net     Network
	counts  *ordertrace.Counts // nil: every record stays to the end
	recs    records
	waiters idtable.Table[int64] // provider id → the first order blocked on one of its results
	ready   []int64              // orders whose progress may continue
	work    float64
	span    times

	runs    chunked.Arena[progress] // the orders still running, by number
	results lists[times]
	steps   lists[step]

	// the lists of the orders still running, copied from their lines
	lineRequests []ordertrace.Request
	lineResults  []ordertrace.Result
	// ownsOrders: the orders add is given are the schedule's to change (it
	// reads a Scanner into an Order of its own), so it may take their long
	// lists rather than copy them.
	ownsOrders bool
}

// record is what the schedule knows of one order: 56 bytes that hold no
// pointer, so that the collector has nothing to scan in the records of a
// trace of millions.
type record struct {
	start   times
	steps   list  // where the offset rose, in own-time order
	results list  // availability of each result published so far, at any requester
	run     int32 // the number of its progress in runs, 0 once the order is finished
	// nextWaiter chains the orders blocked on the same provider (an
	// order waits for one thing at a time), 0 at the end.
	nextWaiter int32
	// With the counts, the children not read yet and the requests naming
	// the order not resolved yet.
	kidsLeft, reqsLeft uint32
}

// list is the values of one order in a lists: n of them from at, with
// room for size.
type list struct{ at, n, size int32 }

// lists holds the lists of every order in one array, each list in a
// piece of a power-of-two size, the pieces given back reused for lists
// of their size.
type lists[T any] struct {
	a    chunked.Array[T]
	top  int32
	free [31]chunked.Stack // by log2 of the size, the pieces' starts
}

// reserve returns an empty list with room for n values.
func (r *lists[T]) reserve(n int) (list, error) {
	if n == 0 {
		return list{}, nil
	}
	class := bits.Len(uint(n - 1))
	if class >= len(r.free) {
		return list{}, errTooMany
	}
	size := int32(1) << class
	if at := r.free[class].Pop(); at != 0 {
		return list{at: at, size: size}, nil
	}
	if r.top == 0 {
		r.top = 1 // a piece starts above 0, which the stacks cannot hold
	}
	if size > math.MaxInt32-r.top {
		return list{}, errTooMany
	}
	at := r.top
	r.top += size
	r.a.Grow(r.top - 1)
	return list{at: at, size: size}, nil
}

var errTooMany = fmt.Errorf("more results or waits than the analysis holds (expected at most %d)", math.MaxInt32/2)

// release gives l's piece back.
func (r *lists[T]) release(l list) {
	if l.size > 0 {
		r.free[bits.Len(uint(l.size-1))].Push(l.at)
	}
}

// at returns value i of l.
func (r *lists[T]) at(l list, i int32) *T { return r.a.At(l.at + i) }

// push appends v to l, moving l to a piece twice its size when it is
// full.
func (r *lists[T]) push(l *list, v T) error {
	if l.n == l.size {
		bigger, err := r.reserve(max(1, 2*int(l.size)))
		if err != nil {
			return err
		}
		for i := range l.n {
			*r.at(bigger, i) = *r.at(*l, i)
		}
		r.release(*l)
		bigger.n = l.n
		*l = bigger
	}
	*r.a.At(l.at + l.n) = v
	l.n++
	return nil
}

// records holds the records of the orders read, by id, in an arena
// whose chunks never move (package chunked): a million orders' records
// are 56 MB, which a growing slice would copy at every doubling.
type records struct {
	a    chunked.Arena[record]
	byID idtable.Table[int32] // id → its record's number in a
	n    int64                // orders read
}

func (rs *records) len() int64 { return rs.n }

// at returns the record of order id, which the schedule holds.
func (rs *records) at(id int64) *record { return rs.a.At(rs.byID.Get(id)) }

// find returns the record of order id, nil when the schedule holds none
// (not read yet, or forgotten).
func (rs *records) find(id int64) *record {
	if i := rs.byID.Get(id); i != 0 {
		return rs.a.At(i)
	}
	return nil
}

// add files the record of the next order.
func (rs *records) add(r record) {
	i, p := rs.a.Alloc()
	*p = r
	rs.n++
	rs.byID.Set(rs.n, i)
}

// forget drops the record of order id: not zeroed, since add overwrites
// a record whole.
func (rs *records) forget(id int64) {
	rs.a.Recycle(rs.byID.Get(id))
	rs.byID.Delete(id)
}

// step is the offset of an order from own moment at (exclusive for makes,
// inclusive for results) on.
type step struct {
	at     float64
	offset times
}

// progress is an order still running: known up to its request next. It
// copies what the schedule reads of the order (its lists too, once it
// outlives add: keepLists) rather than keeping the Order, which the
// source may reuse for the next order, and which would otherwise keep
// alive the order's segments while it waits for children far ahead.
type progress struct {
	line    orderLine
	started bool
	next    int   // first request whose result is not known yet
	offset  times // the offset after the requests before next
	kids    []int64
}

// orderLine is what the schedule reads of an order.
type orderLine struct {
	parent           int64
	madeAt, duration float64
	argBytes         int64
	requests         []ordertrace.Request
	results          []ordertrace.Result
}

func lineOf(o *ordertrace.Order) orderLine {
	return orderLine{parent: o.Parent, madeAt: o.MadeAt, duration: o.Duration, argBytes: o.ArgBytes, requests: o.Requests, results: o.Results}
}

// newSchedule returns an empty schedule; counts, when not nil, are those
// of the trace to come (see schedule).
func newSchedule(net Network, counts *ordertrace.Counts) *schedule {
	return &schedule{net: net, counts: counts}
}

// add places what o makes known.
func (s *schedule) add(o *ordertrace.Order) error {
	if err := s.admissible(o); err != nil {
		return err
	}
	results, err := s.results.reserve(len(o.Results))
	if err != nil {
		return fmt.Errorf("order %d: %w", o.ID, err)
	}
	s.work += o.Duration
	rec := record{run: s.newProgress(o), results: results}
	if s.counts != nil {
		rec.kidsLeft, rec.reqsLeft = s.counts.Kids(o.ID), s.counts.Requests(o.ID)
	}
	s.recs.add(rec)
	if o.Parent == 0 {
		s.begin(o.ID, times{})
	} else if err := s.addKid(o); err != nil {
		return err
	}
	if err := s.drain(); err != nil {
		return fmt.Errorf("order %d: %w", o.ID, err)
	}
	if r := s.recs.find(o.ID); r != nil && r.run != 0 {
		s.keepLists(&s.progress(r).line, o)
	}
	return nil
}

// addKid starts o, just read, if its parent's time at the moment of
// making it is known, and leaves it to its parent otherwise.
func (s *schedule) addKid(o *ordertrace.Order) error {
	parent := s.recs.find(o.Parent)
	if parent == nil {
		return fmt.Errorf("order %d: parent %d forgotten (expected the trace the counts were made of)", o.ID, o.Parent)
	}
	if s.knownBefore(parent, o.MadeAt) {
		s.begin(o.ID, s.at(parent, o.MadeAt).plus(0, s.net.MessageTime(o.ArgBytes)))
	} else {
		p := s.progress(parent)
		p.kids = append(p.kids, o.ID)
	}
	if s.counts != nil {
		parent.kidsLeft--
		s.forgetDone(o.Parent, parent)
	}
	return nil
}

// forgetDone forgets order id, whose record is r, if the schedule has
// its counts and no child or request will read r any more.
func (s *schedule) forgetDone(id int64, r *record) {
	if s.counts == nil || r.run != 0 || r.kidsLeft != 0 || r.reqsLeft != 0 {
		return
	}
	s.results.release(r.results)
	s.steps.release(r.steps)
	s.recs.forget(id)
}

// keepsSteps reports whether the steps of order id may be read: without
// the counts always, with them when it makes children.
func (s *schedule) keepsSteps(id int64) bool { return s.counts == nil || s.counts.Kids(id) > 0 }

// progress returns the progress of r, which is running.
func (s *schedule) progress(r *record) *progress { return s.runs.At(r.run) }

// keepLists makes the lists of line, those of o, an order that outlives
// add, the schedule's own: o's memory may be the source's, which reuses
// it for the next order.
func (s *schedule) keepLists(line *orderLine, o *ordertrace.Order) {
	line.requests = keepList(s, &s.lineRequests, &o.Requests)
	line.results = keepList(s, &s.lineResults, &o.Results)
}

// keepList returns a copy of *list cut from *slab; or, when the schedule
// owns the order and the list is long, the list itself, leaving the order
// without it so that the source reads the next order's into new memory
// (a master's million requests are not copied).
func keepList[T any](s *schedule, slab *[]T, list *[]T) []T {
	if s.ownsOrders && len(*list) > longList {
		l := *list
		*list = nil
		return l
	}
	return append(cut(slab, len(*list)), *list...)
}

// admissible checks what the schedule itself relies on (a validating
// Reader checks much more).
func (s *schedule) admissible(o *ordertrace.Order) error {
	n := s.recs.len()
	switch {
	case o.ID != n+1:
		return fmt.Errorf("order %d out of order (expected %d: ids count up from 1)", o.ID, n+1)
	case o.Parent < 0 || o.Parent >= o.ID || o.ID > 1 && o.Parent == 0:
		return fmt.Errorf("order %d: parent %d unknown (expected an earlier order's id)", o.ID, o.Parent)
	case o.ID > math.MaxInt32:
		return fmt.Errorf("order %d: more orders than the analysis holds (expected at most %d)", o.ID, math.MaxInt32)
	}
	return nil
}

// newProgress returns the number in runs of a progress for o, reusing
// the list of children of a finished order's.
func (s *schedule) newProgress(o *ordertrace.Order) int32 {
	i, p := s.runs.Alloc()
	*p = progress{line: lineOf(o), kids: p.kids[:0]}
	return i
}

// begin starts order id at real time t and queues it to run.
func (s *schedule) begin(id int64, t times) {
	r := s.recs.at(id)
	p := s.progress(r)
	r.start, p.started, p.offset = t, true, t
	s.ready = append(s.ready, id)
}

// drain runs every order that can go on.
func (s *schedule) drain() error {
	for len(s.ready) > 0 {
		id := s.ready[len(s.ready)-1]
		s.ready = s.ready[:len(s.ready)-1]
		if err := s.advance(id); err != nil {
			return err
		}
	}
	return nil
}

// advance runs order id through its requests while their results are
// known, publishing its results and starting its waiting children as
// their moments become known.
func (s *schedule) advance(id int64) error {
	r := s.recs.at(id)
	p := s.progress(r)
	o := &p.line
	for {
		horizon := math.Inf(1)
		if p.next < len(o.requests) {
			horizon = o.requests[p.next].At
		}
		s.publish(id, horizon)
		s.startKids(r, horizon)
		if p.next == len(o.requests) {
			s.finish(id)
			return nil
		}
		q := o.requests[p.next]
		avail, ok := s.result(q)
		if !ok {
			r.nextWaiter = int32(s.waiters.Get(q.Order))
			s.waiters.Set(q.Order, id)
			return nil
		}
		if off := later(p.offset, avail.minus(q.At)); off != p.offset {
			p.offset = off
			if s.keepsSteps(id) {
				if err := s.steps.push(&r.steps, step{at: q.At, offset: off}); err != nil {
					return err
				}
			}
		}
		p.next++
		if s.counts != nil {
			provider := s.recs.at(q.Order)
			provider.reqsLeft--
			s.forgetDone(q.Order, provider)
		}
	}
}

// result returns when the result q requests is available, if known.
func (s *schedule) result(q ordertrace.Request) (times, bool) {
	rec := s.recs.find(q.Order)
	if rec == nil {
		return times{}, false
	}
	rs := rec.results
	if q.Result < 0 || q.Result >= int(rs.n) {
		return times{}, false
	}
	return *s.results.at(rs, int32(q.Result)), true
}

// publish makes known the results of order id provided before own moment
// horizon, and wakes the orders waiting for them.
func (s *schedule) publish(id int64, horizon float64) {
	r := s.recs.at(id)
	p := s.progress(r)
	o := &p.line
	had := r.results.n
	for n := had; int(n) < len(o.results) && o.results[n].At < horizon; n++ {
		res := o.results[n]
		// reserved for every result: push does not move the list
		_ = s.results.push(&r.results, p.offset.plus(res.At, s.net.MessageTime(res.Bytes)))
	}
	if r.results.n > had {
		s.wake(id)
	}
}

// wake queues the orders waiting for a result of provider that is now
// known.
func (s *schedule) wake(provider int64) {
	first := s.waiters.Get(provider)
	if first == 0 {
		return
	}
	known := int(s.recs.at(provider).results.n)
	kept := int64(0) // the chain of those still waiting, rebuilt
	for w := first; w != 0; {
		r := s.recs.at(w)
		next := int64(r.nextWaiter)
		if p := s.progress(r); p.line.requests[p.next].Result < known {
			r.nextWaiter = 0
			s.ready = append(s.ready, w)
		} else {
			r.nextWaiter, kept = int32(kept), w
		}
		w = next
	}
	s.waiters.Set(provider, kept)
}

// startKids starts the children of r made before own moment horizon.
func (s *schedule) startKids(r *record, horizon float64) {
	p := s.progress(r)
	kept := p.kids[:0]
	for _, k := range p.kids {
		kid := &s.progress(s.recs.at(k)).line
		if kid.madeAt <= horizon {
			s.begin(k, s.at(r, kid.madeAt).plus(0, s.net.MessageTime(kid.argBytes)))
		} else {
			kept = append(kept, k)
		}
	}
	p.kids = kept
}

// finish records the end of order id and forgets its progress.
func (s *schedule) finish(id int64) {
	r := s.recs.at(id)
	p := s.progress(r)
	s.span = later(s.span, p.offset.plus(p.line.duration, 0))
	s.runs.Recycle(r.run)
	r.run = 0
	s.forgetDone(id, r)
}

// knownBefore reports whether r's real time is known at own moment t for
// making a child: r has started and resolved every request before t.
func (s *schedule) knownBefore(r *record, t float64) bool {
	if r.run == 0 {
		return true
	}
	p := s.progress(r)
	return p.started && (p.next == len(p.line.requests) || p.line.requests[p.next].At >= t)
}

// at returns r's real time at own moment t of making a child: the offset
// counts the waits strictly before t.
func (s *schedule) at(r *record, t float64) times {
	i := sort.Search(int(r.steps.n), func(i int) bool { return s.steps.at(r.steps, int32(i)).at >= t })
	if i == 0 {
		return r.start.plus(t, 0)
	}
	return s.steps.at(r.steps, int32(i-1)).offset.plus(t, 0)
}

// longList is the length from which a list is not cut from a slab.
const longList = slabSize / 8

// slabSize is the number of items of a slab lists are cut from.
const slabSize = 4096

// cut returns an empty slice of capacity n from *slab, a fresh one for a
// long list.
func cut[T any](slab *[]T, n int) []T {
	if n > longList {
		return make([]T, 0, n)
	}
	if len(*slab) < n {
		*slab = make([]T, slabSize)
	}
	out := (*slab)[:0:n]
	*slab = (*slab)[n:]
	return out
}
