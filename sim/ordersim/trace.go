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
	if err := e.run(); err != nil {
		return nil, err
	}
	return e.result(), nil
}
