package workspan

import (
	"fmt"
	"math"
	"math/bits"
	"slices"
	"sort"

	"github.com/presage-dvm/presage/sim/internal/chunked"
	"github.com/presage-dvm/presage/sim/internal/idtable"
	"github.com/presage-dvm/presage/sim/internal/requeststore"
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
// plus 16 per result and 24 per wait; a running order adds 72 bytes, 16
// per request and result and 4 per child waiting to start. Without the
// trace's counts, any later order may still make children of it or
// request its results, so it keeps them to the end. With them, it keeps
// them until its last child is read and its last request resolved, and
// steps only if it makes children: memory follows the orders still
// needed.
type schedule struct {
	net     Network
	counts  *ordertrace.Counts // nil: every record stays to the end
	recs    records
	waiters idtable.Table[int32] // provider id → the first order blocked on one of its results
	ready   []int64              // orders whose progress may continue
	work    float64
	span    times

	runs    chunked.Arena[progress] // the orders still running, by number
	results lists[times]
	steps   lists[step]

	// the lists of the orders still running, copied from their lines
	lineRequests requeststore.Store
	lineResults  lists[ordertrace.Result]
	kids         lists[int32]
	// ownsOrders: the orders add is given are the schedule's to change (it
	// reads a Scanner into an Order of its own), so it may take their long
	// lists of requests rather than copy them.
	ownsOrders bool
}

// record is what the schedule knows of one order: 56 bytes that hold no
// pointer, so that the collector has nothing to scan in the records of a
// trace of millions.
type record struct {
	start   times
	steps   list  // where the offset rose, in own-time order
	results list  // availability of each result published so far, at any requester (room for all from the first)
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
// copies what the schedule reads of the order, its lists into the
// schedule's own, rather than keeping the Order, which the source may
// reuse for the next order, and which would otherwise keep alive the
// order's segments while it waits for children far ahead. It holds no
// pointer: a divide and conquer's ingest holds every inner order until
// the leaves, half the trace, are read.
type progress struct {
	// offset is, once the order has started, its offset after the
	// requests before next; until then, its own moment of making and the
	// bits of its arguments' bytes, which its parent reads to start it
	// (made, argBytes): no moment of the order's is known before it
	// starts, and nothing reads those after.
	offset   times
	duration float64
	requests requeststore.List
	results  list  // in lineResults
	kids     list  // children read before their parent got to the moment of making them, in kids
	next     int32 // first request whose result is not known yet
	parent   int32
	started  bool
}

// made returns the own moment of p's parent that makes p, until p starts.
func (p *progress) made() float64 { return p.offset[plain] }

// argBytes returns the bytes of p's arguments, until p starts.
func (p *progress) argBytes() int64 { return int64(math.Float64bits(p.offset[burdened])) }

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
	run, err := s.newProgress(o)
	if err != nil {
		return fmt.Errorf("order %d: %w", o.ID, err)
	}
	s.work += o.Duration
	rec := record{run: run}
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
	} else if err := s.kids.push(&s.progress(parent).kids, int32(o.ID)); err != nil {
		return fmt.Errorf("order %d: %w", o.ID, err)
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

// newProgress returns the number in runs of a progress for o, its lists
// copied into the schedule's.
func (s *schedule) newProgress(o *ordertrace.Order) (int32, error) {
	results, err := s.lineResults.reserve(len(o.Results))
	if err != nil {
		return 0, err
	}
	for _, res := range o.Results {
		_ = s.lineResults.push(&results, res) // reserved: push does not move the list
	}
	i, p := s.runs.Alloc()
	*p = progress{offset: times{o.MadeAt, math.Float64frombits(uint64(o.ArgBytes))}, duration: o.Duration,
		requests: s.lineRequests.Add(s.ownRequests(o)), results: results, parent: int32(o.Parent)}
	return i, nil
}

// ownRequests returns o's requests for the schedule to keep: a list the
// store keeps as it is must be the schedule's own, taken from o when the
// schedule owns it (the source then reads the next order into new
// memory, and a master's million requests are not copied), copied
// otherwise.
func (s *schedule) ownRequests(o *ordertrace.Order) []ordertrace.Request {
	r := o.Requests
	switch {
	case !requeststore.Keeps(r):
	case s.ownsOrders:
		o.Requests = nil
	default:
		r = slices.Clone(r)
	}
	return r
}

// request returns p's request i.
func (s *schedule) request(p *progress, i int32) ordertrace.Request {
	return s.lineRequests.Get(p.requests, i)
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
	for {
		horizon := math.Inf(1)
		if p.next < p.requests.Len() {
			horizon = s.request(p, p.next).At
		}
		if err := s.publish(id, horizon); err != nil {
			return err
		}
		s.startKids(r, horizon)
		if p.next == p.requests.Len() {
			s.finish(id)
			return nil
		}
		q := s.request(p, p.next)
		avail, ok := s.result(q)
		if !ok {
			r.nextWaiter = s.waiters.Get(q.Order)
			s.waiters.Set(q.Order, int32(id))
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
// horizon, and wakes the orders waiting for them. The list of their
// times is reserved for all of them at the first: an order that waits
// for its children before providing (a divide and conquer's inner
// orders, held until the leaves are read) holds none meanwhile.
func (s *schedule) publish(id int64, horizon float64) error {
	r := s.recs.at(id)
	p := s.progress(r)
	had := r.results.n
	for n := had; n < p.results.n; n++ {
		res := *s.lineResults.at(p.results, n)
		if res.At >= horizon {
			break
		}
		if r.results.size == 0 {
			all, err := s.results.reserve(int(p.results.n))
			if err != nil {
				return err
			}
			r.results = all
		}
		// reserved for every result: push does not move the list
		_ = s.results.push(&r.results, p.offset.plus(res.At, s.net.MessageTime(res.Bytes)))
	}
	if r.results.n > had {
		s.wake(id)
	}
	return nil
}

// wake queues the orders waiting for a result of provider that is now
// known.
func (s *schedule) wake(provider int64) {
	first := s.waiters.Get(provider)
	if first == 0 {
		return
	}
	known := int(s.recs.at(provider).results.n)
	kept := int32(0) // the chain of those still waiting, rebuilt
	for w := first; w != 0; {
		r := s.recs.at(int64(w))
		next := r.nextWaiter
		if p := s.progress(r); s.request(p, p.next).Result < known {
			r.nextWaiter = 0
			s.ready = append(s.ready, int64(w))
		} else {
			r.nextWaiter, kept = kept, w
		}
		w = next
	}
	s.waiters.Set(provider, kept)
}

// startKids starts the children of r made before own moment horizon.
func (s *schedule) startKids(r *record, horizon float64) {
	p := s.progress(r)
	kept := int32(0)
	for i := range p.kids.n {
		k := int64(*s.kids.at(p.kids, i))
		if kid := s.progress(s.recs.at(k)); kid.made() <= horizon {
			s.begin(k, s.at(r, kid.made()).plus(0, s.net.MessageTime(kid.argBytes())))
		} else {
			*s.kids.at(p.kids, kept) = int32(k)
			kept++
		}
	}
	p.kids.n = kept
}

// finish records the end of order id and forgets its progress.
func (s *schedule) finish(id int64) {
	r := s.recs.at(id)
	p := s.progress(r)
	s.span = later(s.span, p.offset.plus(p.duration, 0))
	s.lineRequests.Release(p.requests)
	s.lineResults.release(p.results)
	s.kids.release(p.kids)
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
	return p.started && (p.next == p.requests.Len() || s.request(p, p.next).At >= t)
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
