package ordersim

// Contention: with a trace whose header has a slowdown
// (ordertrace.Header.Slowdown), an order's own time runs at the node's
// power divided by the slowdown of the orders running at once on its
// node (on every node with Options.SharedMemory). When that number
// changes, every order running there is re-timed: the part of its step
// done at the old rate is kept, the rest goes at the new one, and the
// event of its step moves (the old event, left in the heap, is known
// stale by its sequence number). None of this runs for a trace without a
// slowdown, whose simulation stays as it was.

// step is where a running order's current step stands, for re-timing.
type step struct {
	seq   uint64  // the event that ends it; others for the order are stale
	t0    float64 // when it started, or was last re-timed
	own0  float64 // the order's own moment then
	rate  float64 // own time per second since t0; 0 while not re-timed (the runtime's own cost, or no step)
	place int32   // the order's index in its node's list of running orders
}

// stepOf returns the step of the order numbered idx.
func (e *engine) stepOf(idx int32) *step {
	e.steps.Grow(idx)
	return e.steps.At(idx)
}

// slowdown is how much slower an order on node runs now.
func (e *engine) slowdown(node int32) float64 {
	k := e.nodes[node].running
	if e.opt.SharedMemory {
		k = e.running
	}
	return e.slow[min(max(k, 1), len(e.slow))-1]
}

// onCore notes that l took a core of its node (on true) or left it, and
// re-times the orders the change slows down or speeds up.
func (e *engine) onCore(l *live, on bool) {
	list := &e.cores[l.node]
	s := e.stepOf(l.idx)
	if on {
		s.place, s.rate = int32(len(*list)), 0
		*list = append(*list, l.idx)
	} else {
		last := (*list)[len(*list)-1]
		(*list)[s.place] = last
		e.stepOf(last).place = s.place
		*list = (*list)[:len(*list)-1]
		s.rate = 0
	}
	if !e.opt.SharedMemory {
		e.retime(l.node)
		return
	}
	for n := range e.nodes {
		e.retime(int32(n))
	}
}

// retime moves the end of the step of every order running on node to
// the node's present rate.
func (e *engine) retime(node int32) {
	rate := e.power[node] / e.slowdown(node)
	for _, idx := range e.cores[node] {
		s := e.stepOf(idx)
		if s.rate == 0 || s.rate == rate {
			continue
		}
		l := e.lives.At(idx)
		own := s.own0 + (e.now-s.t0)*s.rate
		s.t0, s.own0, s.rate = e.now, own, rate
		s.seq = e.ev.push(e.now+max(l.own-own, 0)/rate, evStep, idx)
	}
}

// stepTo schedules the end of l's step from its own moment to next at
// the node's present rate, to be re-timed as it changes.
func (e *engine) stepTo(l *live, next float64) {
	s := e.stepOf(l.idx)
	s.t0, s.own0, s.rate = e.now, l.own, e.power[l.node]/e.slowdown(l.node)
	l.own = next
	s.seq = e.ev.push(e.now+(next-s.own0)/s.rate, evStep, l.idx)
}
