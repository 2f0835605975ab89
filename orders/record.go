package orders

import (
	"maps"
	"slices"

	"github.com/presage-dvm/presage/orders/calibration"
	"github.com/presage-dvm/presage/orders/tracefile"
)

// recordMode runs the program sequentially: an order runs to its end when
// it is made, so each order's own clock stops while its children run and
// every Get finds its result ready. Blocks run their quick alternative and
// are priced from the constants. Each order's line goes to a spill file
// when it ends; only its place there and its start in the
// as-soon-as-possible schedule stay in memory, by which the trace is
// renumbered and written at the end (see renumber).
type recordMode struct {
	prices calibration.Constants
	unit   float64 // trace units per second: 1, or 1/the reference's time
	spill  *spill
	work   float64            // the ended orders' durations
	blocks map[string]float64 // the priced time of each block, summed
	runState
}

// slowdown returns the program's slowdown with k orders at once, for k
// from 1 to the most copies the calibration timed: each block's,
// weighed by its share of the work (tracefile.Header.Slowdown). nil
// when the calibration timed no copies.
func (m *recordMode) slowdown() []float64 {
	most := 1
	for b := range m.blocks {
		for _, q := range m.prices[b].Slowdown {
			most = max(most, q.Copies)
		}
	}
	if most == 1 || !(m.work > 0) {
		return nil
	}
	names := slices.Sorted(maps.Keys(m.blocks)) // the same sums in the same order every time
	s := make([]float64, most)
	for k := range s {
		s[k] = 1
		for _, b := range names {
			s[k] += m.blocks[b] / m.work * (m.prices[b].SlowdownAt(k+1) - 1)
		}
	}
	return s
}

// recorded is an order of the trace being recorded, while it runs.
type recorded struct {
	tr       *tracefile.Order
	clock    stopwatch
	segStart float64        // own moment where the current unmarked segment began
	asked    map[int64]bool // orders already requested (by number: the map must not keep them alive)
	// asap is the order's start in the as-soon-as-possible schedule
	// (unlimited computers, free transfers), delay what its waits have
	// added to its own time so far; asapEnd is when it ends there.
	asap, delay, asapEnd float64
}

// now is the moment of r's own time u in the as-soon-as-possible schedule.
func (r *recorded) now(u float64) float64 { return r.asap + u + r.delay }

func (m *recordMode) make(parent *Ctx, spec orderSpec) *order {
	id := m.spill.count() + 1
	o := &order{id: id, proc: spec.name, rec: &recorded{tr: &tracefile.Order{ID: id, Proc: spec.name, ArgBytes: spec.argBytes},
		clock: stopwatch{unit: m.unit}}}
	body := spec.body
	if spec.encode != nil { // Config.Codec: the maker encodes, the order decodes
		body = decoding(parent, spec)
	}
	if parent != nil {
		p := parent.ord.rec
		p.clock.stop()
		o.rec.tr.Parent, o.rec.tr.MadeAt = parent.ord.id, p.clock.own
		o.rec.asap = p.now(p.clock.own)
		defer p.clock.start()
	}
	m.spill.made(o.rec.asap)
	m.exec(o, body)
	return o
}

// decoding encodes spec's arguments in the own time of parent, its
// maker (nil for main, whose arguments the coordinator encodes before
// the run), and returns spec's body preceded by their decoding, in the
// own time of the order: what a run in worker processes spends on them
// (Config.Codec). The body runs on the arguments it was made with,
// which the decoded ones equal.
func decoding(parent *Ctx, spec orderSpec) orderBody {
	if parent != nil {
		parent.resumeOwn()
		defer parent.pauseOwn()
	}
	args, err := spec.encode()
	return bodyFunc(func(c *Ctx) (int64, error) {
		if err != nil {
			return 0, err
		}
		p, err := lookup(spec.name)
		if err == nil {
			_, err = p.bind(args)
		}
		if err != nil {
			return 0, err
		}
		return spec.body.run(c)
	})
}

// exec runs o to its end.
func (m *recordMode) exec(o *order, body orderBody) {
	r := o.rec
	var err error
	defer func() {
		ended(o, err, recover())
		m.note(o)
		own := r.clock.stop()
		r.closeSegment()
		r.tr.Duration = own
		r.asapEnd = r.now(own)
		m.work += own
		m.spill.ended(r.tr)
		r.tr, r.asked = nil, nil // what is left serves the orders that ask for its result
	}()
	r.clock.start()
	var bytes int64
	bytes, err = body.run(&Ctx{rt: m, ord: o, run: &m.runState})
	r.tr.Results = []tracefile.Result{{At: r.clock.stop(), Bytes: bytes}}
}

// closeSegment ends the unmarked stretch of own time since segStart.
func (r *recorded) closeSegment() {
	if d := r.clock.own - r.segStart; d > 0 {
		r.tr.Segments = append(r.tr.Segments, tracefile.Segment{Start: r.segStart, Dur: d})
	}
	r.segStart = r.clock.own
}

func (m *recordMode) get(c *Ctx, o *order) error {
	r, q := c.ord.rec, o.rec
	own := r.clock.stop()
	if !r.asked[o.id] {
		if r.asked == nil {
			r.asked = map[int64]bool{}
		}
		r.asked[o.id] = true
		r.tr.Requests = append(r.tr.Requests, tracefile.Request{Order: o.id, At: own})
		r.delay = max(r.delay, q.asapEnd-r.asap-own)
	}
	r.clock.start()
	return nil
}

func (m *recordMode) block(c *Ctx, name string, cost Cost, _, quick func()) {
	r := c.ord.rec
	r.clock.stop()
	seconds, ok := m.prices.Price(name, cost.F)
	if !ok {
		misuse("block %q is not in the calibration (expected a row for every block the program runs)", name)
	}
	r.closeSegment()
	d := seconds * m.unit
	m.blocks[name] += d
	r.tr.Segments = append(r.tr.Segments, tracefile.Segment{Start: r.clock.own, Dur: d, Block: name})
	r.clock.own += d
	r.segStart = r.clock.own
	quick()
	r.clock.start()
}
