package ordertrace

import (
	"cmp"
	"math"
	"slices"
	"sort"

	"github.com/presage-dvm/presage/sim/internal/chunked"
	"github.com/presage-dvm/presage/sim/machine"
)

// checker applies the validation rules of docs/orders.md to orders in
// file order. Rules about one order are checked at once; a request for a
// later order is remembered until that order is read. It keeps 12 bytes
// per order read (the duration its children's MadeAt is checked against
// and the number of results requests are checked against: any later order
// may make children of, or request, any earlier one) plus the pending
// requests.
//
// The tables are chunked arrays, grown as orders are read: a table sized
// up front for the orders a header announces counted whole towards the
// collector's goal from the first line (114 MB at 10M orders), while a
// master's first line, naming every task, is when ingest's heap peaks.
type checker struct {
	durations chunked.Array[float64] // by id-1
	nresults  chunked.Array[uint32]  // by id-1
	n         int32                  // orders checked
	lines     []lineBreak            // where orders' first lines stop following their ids
	pending   pendingSet
	scratch   []Request // for checkDuplicates
}

// lineBreak says that order id starts on line: so do the orders after
// it, one line each, up to the next break (an order of several lines).
type lineBreak struct{ id, line int64 }

// noteLine remembers that order id starts on line.
func (c *checker) noteLine(id, line int64) {
	if n := len(c.lines); n == 0 || c.lines[n-1].line+(id-c.lines[n-1].id) != line {
		c.lines = append(c.lines, lineBreak{id, line})
	}
}

// lineOf returns the first line of order id, checked already.
func (c *checker) lineOf(id int64) int64 {
	i := sort.Search(len(c.lines), func(i int) bool { return c.lines[i].id > id }) - 1
	return c.lines[i].line + id - c.lines[i].id
}

// lineDefect is a defect found on an earlier line than the current one.
type lineDefect struct {
	line int64
	*defect
}

// maxKept bounds the scratch list a checker keeps from one order to the
// next, as tracefile's decoder bounds the lists it reuses.
const maxKept = 4096

func newChecker() *checker { return &checker{pending: newPendingSet()} }

// read returns the number of orders checked so far.
func (c *checker) read() int64 { return int64(c.n) }

// tolerance is how far two own-time moments computed by different sums
// (a segment's end and the next one's start, the last end and Duration)
// may differ and still be the same moment.
func tolerance(t float64) float64 { return 1e-9 * max(1, math.Abs(t)) }

// add checks o, read from line, and remembers what later orders need.
// An error about an earlier line is a *lineDefect.
func (c *checker) add(o *Order, line int64) error {
	if err := c.identity(o); err != nil {
		return err
	}
	if err := checkOwnTime(o); err != nil {
		return err
	}
	if err := c.checkRequests(o); err != nil {
		return err
	}
	c.noteLine(o.ID, line)
	c.durations.Grow(c.n)
	c.nresults.Grow(c.n)
	*c.durations.At(c.n) = o.Duration
	*c.nresults.At(c.n) = uint32(min(len(o.Results), math.MaxUint32))
	c.n++
	return c.resolve(o)
}

// identity checks the id, the parent and the moment of making.
func (c *checker) identity(o *Order) *defect {
	want := c.read() + 1
	switch {
	case o.ID != want:
		return defectf(o.ID, "id out of order (expected %d: ids count up from 1 in creation order)", want)
	case o.ID > math.MaxInt32:
		return defectf(o.ID, "more orders than a trace may have (expected at most %d)", math.MaxInt32)
	case o.ID == 1 && o.Parent != 0:
		return defectf(o.ID, "the main order has parent %d (expected 0)", o.Parent)
	case o.ID > 1 && (o.Parent < 1 || o.Parent >= o.ID):
		return defectf(o.ID, "parent %d unknown (expected an earlier order's id)", o.Parent)
	case o.Proc == "":
		return defectf(o.ID, "proc is empty (expected the procedure's name)")
	case o.ArgBytes < 0:
		return defectf(o.ID, "arg_bytes %d negative", o.ArgBytes)
	case !moment(o.MadeAt):
		return defectf(o.ID, "made_at %v is not a moment (%s)", o.MadeAt, lengthWant)
	case o.ID == 1 && o.MadeAt != 0:
		return defectf(o.ID, "the main order is made at %v (expected 0)", o.MadeAt)
	}
	if o.ID > 1 {
		if d := *c.durations.At(int32(o.Parent - 1)); o.MadeAt > d {
			return defectf(o.ID, "made at %v, outside its parent %d's own time [0, %v]", o.MadeAt, o.Parent, d)
		}
	}
	return nil
}

// moment reports whether t can be a moment or length of own time: in
// machine.DurationRange, so that no sum of a trace's times overflows to
// +Inf on its way to the store.
func moment(t float64) bool { return machine.DurationRange.Contains(t) }

// lengthWant is what a length of time must be, for the errors.
var lengthWant = machine.DurationRange.Want(1, "seconds")

// checkOwnTime checks the duration, the segments and the moments of the
// events against it.
func checkOwnTime(o *Order) *defect {
	if !moment(o.Duration) {
		return defectf(o.ID, "duration %v is not a length of time (%s)", o.Duration, lengthWant)
	}
	if err := checkSegments(o); err != nil {
		return err
	}
	if len(o.Results) == 0 {
		return defectf(o.ID, "no result (expected at least one: every order provides a result)")
	}
	last := 0.0
	for i, r := range o.Results {
		if err := checkEvent(o, "result", i, r.At, last); err != nil {
			return err
		}
		if r.Bytes < 0 {
			return defectf(o.ID, "result %d: bytes %d negative", i, r.Bytes)
		}
		last = r.At
	}
	last = 0
	for i, q := range o.Requests {
		if err := checkEvent(o, "request", i, q.At, last); err != nil {
			return err
		}
		last = q.At
	}
	return nil
}

// checkEvent checks the moment at of event i (a result or request) of o,
// the previous one of its kind being at prev.
func checkEvent(o *Order, kind string, i int, at, prev float64) *defect {
	switch {
	case !moment(at) || at > o.Duration:
		return defectf(o.ID, "%s %d at %v, outside the order's own time [0, %v]", kind, i, at, o.Duration)
	case at < prev:
		return defectf(o.ID, "%s %d at %v before the previous one at %v (expected own-time order)", kind, i, at, prev)
	}
	return nil
}

// checkSegments checks that the segments, if any, cover [0, Duration]
// one after the other.
func checkSegments(o *Order) *defect {
	if len(o.Segments) == 0 {
		return nil
	}
	end := 0.0
	for i, g := range o.Segments {
		switch {
		case !moment(g.Dur):
			return defectf(o.ID, "segment %d: dur %v is not a length of time (%s)", i, g.Dur, lengthWant)
		case !moment(g.Start) || math.Abs(g.Start-end) > tolerance(end):
			return defectf(o.ID, "segment %d starts at %v (expected %v, where the previous one ends: segments cover [0, duration] in order)", i, g.Start, end)
		}
		end = g.Start + g.Dur
	}
	if math.Abs(end-o.Duration) > tolerance(o.Duration) {
		return defectf(o.ID, "segments end at %v (expected the duration %v)", end, o.Duration)
	}
	return nil
}

// checkRequests checks the requests' targets: an earlier order must
// provide the result; a later one is remembered.
func (c *checker) checkRequests(o *Order) *defect {
	if err := c.checkDuplicates(o); err != nil {
		return err
	}
	for i, q := range o.Requests {
		switch {
		case q.Order == o.ID:
			return defectf(o.ID, "request %d names the order itself (a cycle: an order cannot wait for its own result)", i)
		case q.Order < 1:
			return defectf(o.ID, "request %d names order %d (expected an order id ≥ 1)", i, q.Order)
		case q.Result < 0:
			return defectf(o.ID, "request %d: result index %d negative", i, q.Result)
		case q.Result > math.MaxInt32:
			return defectf(o.ID, "request %d: result index %d out of range (expected at most %d)", i, q.Result, math.MaxInt32)
		case q.Order < o.ID:
			if n := *c.nresults.At(int32(q.Order - 1)); uint64(q.Result) >= uint64(n) {
				return neverProvided(o.ID, q, int64(n))
			}
		default:
			c.pending.add(q.Order, pendingRequest{from: o.ID, result: int32(q.Result), at: q.At})
		}
	}
	return nil
}

func neverProvided(from int64, q Request, n int64) *defect {
	return defectf(from, "requests result %d of order %d, which provides %d (a request for a result never provided)", q.Result, q.Order, n)
}

// checkDuplicates rejects a second request for the same result: a trace
// records only an order's first request for each result. Short lists are
// compared pairwise; long ones need no check when they name their
// results in increasing order (a master's do, its tasks' in id order),
// and are sorted in scratch space otherwise.
func (c *checker) checkDuplicates(o *Order) *defect {
	dup := func(q Request) *defect {
		return defectf(o.ID, "requests result %d of order %d twice (expected only the first request)", q.Result, q.Order)
	}
	qs := o.Requests
	if len(qs) <= 16 {
		for i := range qs {
			for j := i + 1; j < len(qs); j++ {
				if compareTargets(qs[i], qs[j]) == 0 {
					return dup(qs[j])
				}
			}
		}
		return nil
	}
	if increasing(qs) {
		return nil
	}
	keys := append(c.scratch[:0], qs...)
	if cap(keys) <= maxKept {
		c.scratch = keys // a master's list of millions is not kept for the rest of the trace
	}
	slices.SortFunc(keys, compareTargets)
	for i := 1; i < len(keys); i++ {
		if compareTargets(keys[i-1], keys[i]) == 0 {
			return dup(keys[i])
		}
	}
	return nil
}

// increasing reports whether qs name their targets in strictly
// increasing order.
func increasing(qs []Request) bool {
	for i := 1; i < len(qs); i++ {
		if compareTargets(qs[i-1], qs[i]) >= 0 {
			return false
		}
	}
	return true
}

// compareTargets orders requests by the order, then the result, they
// name.
func compareTargets(a, b Request) int {
	if c := cmp.Compare(a.Order, b.Order); c != 0 {
		return c
	}
	return cmp.Compare(a.Result, b.Result)
}

// resolve checks the requests that were waiting for o to be read.
func (c *checker) resolve(o *Order) error {
	return c.pending.take(o.ID, func(p pendingRequest) error {
		if int(p.result) >= len(o.Results) {
			q := Request{Order: o.ID, Result: int(p.result), At: p.at}
			return &lineDefect{c.lineOf(p.from), neverProvided(p.from, q, int64(len(o.Results)))}
		}
		if p.from == o.Parent && p.at < o.MadeAt {
			return &lineDefect{c.lineOf(p.from), defectf(p.from, "requests order %d at %v, before making it at %v", o.ID, p.at, o.MadeAt)}
		}
		return nil
	})
}

// finish checks what only the end of the file decides: requests for
// orders that never came. It reports the earliest such line.
func (c *checker) finish() error {
	if c.read() == 0 {
		return &defect{msg: "no orders (expected at least the main order)"}
	}
	p, target, ok := c.pending.earliest()
	if !ok {
		return nil
	}
	return &lineDefect{c.lineOf(p.from), defectf(p.from, "requests order %d, which is not in the trace (a request for a result never provided)", target)}
}
