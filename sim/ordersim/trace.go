package ordersim

import (
	"fmt"
	"io"

	"github.com/presage-dvm/presage/sim/ordertrace"
)

// Prepared is an order trace ready to simulate, as many times as needed:
// the way to open it and the counts of its orders' children and requests
// (ordertrace.Counts), which a lazy reading needs. Every simulation reads
// the trace again, lazily.
type Prepared struct {
	open   func() (ordertrace.Source, error)
	counts *ordertrace.Counts
}

// Counts returns the trace's counts, which nobody may change.
func (p *Prepared) Counts() *ordertrace.Counts { return p.counts }

// Prepare reads the trace open returns once to count its orders' children
// and requests. open must return the same trace every time.
func Prepare(open func() (ordertrace.Source, error)) (*Prepared, error) {
	src, err := open()
	if err != nil {
		return nil, err
	}
	c := new(ordertrace.Counts)
	for {
		o, err := src.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		if err := c.Add(o); err != nil {
			return nil, fmt.Errorf("ordersim: %w", err)
		}
	}
	return Counted(open, c)
}

// Counted prepares the trace open returns with counts already made (a
// store keeps them with the trace), without reading it.
func Counted(open func() (ordertrace.Source, error), c *ordertrace.Counts) (*Prepared, error) {
	if err := c.Finish(); err != nil {
		return nil, fmt.Errorf("ordersim: %w", err)
	}
	return &Prepared{open: open, counts: c}, nil
}

// Simulate prepares the trace open returns and plays it on cl.
func Simulate(open func() (ordertrace.Source, error), cl Cluster, opt Options) (*Result, error) {
	t, err := Prepare(open)
	if err != nil {
		return nil, err
	}
	return t.Simulate(cl, opt)
}

// RuntimeCosts are the own time on a core of the runtime that runs the
// orders, in the trace's unit (a node's power divides them as it divides
// the orders' own time): Order before an order's own work starts (making
// it, starting it, ending it and handing over its result), Wait each
// time an order resumes after a suspension (the suspension, the wake-up,
// the resume). A trace carries them in its header
// (ordertrace.Header.OrderCost, WaitCost), as its calibration timed
// them in one process; a cluster that gives its own (Cluster.OrderCost,
// WaitCost: network mode times them on worker processes) has them
// charged instead, on the core once an order or a wait leaves it
// (engine.occupy), where the next order waits for them. A trace without
// them on a cluster without them costs nothing more than its orders.
type RuntimeCosts struct{ Order, Wait float64 }

// Simulate plays the trace on cl and returns the prediction. The trace is
// read lazily: an order when its parent is about to make it, or when an
// order's next child is needed. The simulation copies what it needs of
// each order read and keeps of the order itself only its Requests, until
// they are played; it does not modify the orders.
func (t *Prepared) Simulate(cl Cluster, opt Options) (*Result, error) {
	if err := cl.Validate(); err != nil {
		return nil, err
	}
	if err := opt.validate(); err != nil {
		return nil, err
	}
	src, err := t.open()
	if err != nil {
		return nil, err
	}
	e := newEngine(t, src, cl, opt)
	if h, ok := src.(interface{ Header() ordertrace.Header }); ok {
		hd := h.Header()
		e.runtime = RuntimeCosts{Order: hd.OrderCost, Wait: hd.WaitCost}
		if len(hd.Slowdown) > 1 {
			e.slow, e.cores = hd.Slowdown, make([][]int32, cl.Nodes)
		}
	}
	if cl.OrderCost > 0 || cl.WaitCost > 0 {
		e.runtime, e.after = RuntimeCosts{}, RuntimeCosts{Order: cl.OrderCost, Wait: cl.WaitCost}
	}
	if w := opt.Workspace; w != nil {
		e.adopt(w)
		defer e.leave(w)
	}
	if err := e.run(); err != nil {
		return nil, err
	}
	return e.result(), nil
}
