package workspan

import (
	"fmt"
	"math"
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
// moment of making it waits in the parent's kids. What a finished order
// keeps (start, steps, result times: any later order may still make
// children of it or request its results) is 40 bytes plus 16 per result
// and 24 per wait.
type schedule struct {
	net     Network
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
}

// record is what the schedule knows of one order: 40 bytes that hold no
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
}

// list is the values of one order in a lists: n of them from at.
type list struct{ at, n int32 }

// lists holds the lists of every order one after the other.
type lists[T any] struct {
	a   chunked.Array[T]
	top int32
}

// reserve returns an empty list with room for n values.
func (r *lists[T]) reserve(n int) (list, error) {
	if n > math.MaxInt32-int(r.top) {
		return list{}, fmt.Errorf("more results or waits than the analysis holds (expected at most %d)", math.MaxInt32)
	}
	at := r.top
	r.top += int32(n)
	if n > 0 {
		r.a.Grow(r.top - 1)
	}
	return list{at: at}, nil
}

// at returns value i of l.
func (r *lists[T]) at(l list, i int32) *T { return r.a.At(l.at + i) }

// push appends v to l, which has room for it.
func (r *lists[T]) push(l *list, v T) {
	*r.a.At(l.at + l.n) = v
	l.n++
}

// records holds the records by id in an array that never moves (package
// chunked): a million orders' records are 40 MB, which a growing slice
// would copy at every doubling.
type records struct {
	a chunked.Array[record]
	n int64
}

func (rs *records) len() int64 { return rs.n }

// at returns the record of order id, 1 ≤ id ≤ rs.len().
func (rs *records) at(id int64) *record { return rs.a.At(int32(id - 1)) }

func (rs *records) add(r record) {
	rs.a.Grow(int32(rs.n))
	*rs.a.At(int32(rs.n)) = r
	rs.n++
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

func newSchedule(net Network) *schedule {
	return &schedule{net: net}
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
	s.recs.add(record{run: s.newProgress(o), results: results})
	if o.Parent == 0 {
		s.begin(o.ID, times{})
	} else if parent := s.recs.at(o.Parent); s.knownBefore(parent, o.MadeAt) {
		s.begin(o.ID, s.at(parent, o.MadeAt).plus(0, s.net.MessageTime(o.ArgBytes)))
	} else {
		p := s.progress(parent)
		p.kids = append(p.kids, o.ID)
	}
	if err := s.drain(); err != nil {
		return fmt.Errorf("order %d: %w", o.ID, err)
	}
	if r := s.recs.at(o.ID); r.run != 0 {
		s.keepLists(&s.progress(r).line)
	}
	return nil
}

// progress returns the progress of r, which is running.
func (s *schedule) progress(r *record) *progress { return s.runs.At(r.run) }

// keepLists copies the lists of line, an order that outlives add, out of
// the order's memory, which the source may reuse for the next order.
func (s *schedule) keepLists(line *orderLine) {
	line.requests = append(cut(&s.lineRequests, len(line.requests)), line.requests...)
	line.results = append(cut(&s.lineResults, len(line.results)), line.results...)
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
			if r.steps.n == 0 {
				var err error
				if r.steps, err = s.steps.reserve(len(o.requests) - p.next); err != nil {
					return err
				}
			}
			s.steps.push(&r.steps, step{at: q.At, offset: off})
		}
		p.next++
	}
}

// result returns when the result q requests is available, if known.
func (s *schedule) result(q ordertrace.Request) (times, bool) {
	if q.Order < 1 || q.Order > s.recs.len() {
		return times{}, false
	}
	rs := s.recs.at(q.Order).results
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
		s.results.push(&r.results, p.offset.plus(res.At, s.net.MessageTime(res.Bytes)))
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

// cut returns an empty slice of capacity n from *slab, a fresh one for a
// long list.
func cut[T any](slab *[]T, n int) []T {
	const size = 4096
	if n > size/8 {
		return make([]T, 0, n)
	}
	if len(*slab) < n {
		*slab = make([]T, size)
	}
	out := (*slab)[:0:n]
	*slab = (*slab)[n:]
	return out
}
