package workspan

import (
	"errors"
	"io"

	"github.com/presage-dvm/presage/sim/ordertrace"
)

// Summary is the work and span of a trace, in the trace's unit of time.
type Summary struct {
	Orders       int64
	Work         float64 // the sum of the orders' durations
	Span         float64 // the longest path, edges between orders free
	BurdenedSpan float64 // the longest path, every make and result edge one message
	Parallelism  float64 // Work / Span; 0 when Span is 0
}

// Analyze reads src to the end and returns the work and span of its
// orders, the burdened span priced by net. src should validate (an
// ordertrace.Reader does); Analyze itself checks only ids and parents,
// and reports orders that cannot finish as a *DeadlockError. It keeps
// nothing of an order once it reads the next: src may reuse its orders,
// and a Scanner is read by Scan into one Order.
//
// Any later order may still make children of an order or request its
// results, so Analyze keeps some 70 bytes of every order to the end:
// AnalyzeCounted does not.
func Analyze(src ordertrace.Source, net Network) (Summary, error) {
	return AnalyzeCounted(src, net, nil)
}

// AnalyzeCounted is Analyze of a trace whose counts are known (a store
// keeps them; ordertrace.Counts): it forgets an order once its last child
// is read and its last request resolved, so that its memory follows the
// orders still needed rather than the trace. The counts must be those of
// src's orders; nil counts make it Analyze.
func AnalyzeCounted(src ordertrace.Source, net Network, counts *ordertrace.Counts) (Summary, error) {
	s := newSchedule(net, counts)
	next := src.Next
	if sc, ok := src.(ordertrace.Scanner); ok {
		var o ordertrace.Order
		next = func() (*ordertrace.Order, error) { return &o, sc.Scan(&o) }
		s.ownsOrders = true
	}
	for {
		o, err := next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return Summary{}, err
		}
		if err := s.add(o); err != nil {
			return Summary{}, err
		}
	}
	if err := s.deadlock(); err != nil {
		return Summary{}, err
	}
	sum := Stored(s.recs.len(), s.work, s.span[plain])
	sum.BurdenedSpan = s.span[burdened]
	return sum, nil
}

// Stored returns the summary of a trace whose work and span are known
// (a store keeps them), on a free network.
func Stored(orders int64, work, span float64) Summary {
	s := Summary{Orders: orders, Work: work, Span: span, BurdenedSpan: span}
	if span > 0 {
		s.Parallelism = work / span
	}
	return s
}

// Check reads src to the end and reports orders that no execution can
// finish (*DeadlockError): the part of a trace's validation that needs
// the whole trace (docs/orders.md, "Validation").
func Check(src ordertrace.Source) error {
	_, err := Analyze(src, Network{})
	return err
}

// SpeedupRange returns the range of speedups on n nodes (Cilkview): at
// most min(n, Parallelism); at least about Work / (Work/n + BurdenedSpan),
// the greedy-scheduling bound with each step along the span paying its
// messages.
func (s Summary) SpeedupRange(n int) (lo, hi float64) {
	if n < 1 || s.Work <= 0 {
		return 0, 0
	}
	hi = float64(n)
	if s.Span > 0 {
		hi = min(hi, s.Parallelism)
	}
	lo = s.Work / (s.Work/float64(n) + s.BurdenedSpan)
	return lo, hi
}
