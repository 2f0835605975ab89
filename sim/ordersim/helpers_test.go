package ordersim

import (
	"io"
	"math"
	"slices"
	"testing"

	"github.com/presage-dvm/presage/sim/ordertrace"
)

// orders is an in-memory trace; every Next returns a copy, so that no
// simulation can change the trace.
type orders []*ordertrace.Order

func (os orders) source() ordertrace.Source { return &sliceSource{orders: os} }

func (os orders) open() (ordertrace.Source, error) { return os.source(), nil }

type sliceSource struct {
	orders orders
	next   int
}

func (s *sliceSource) Next() (*ordertrace.Order, error) {
	if s.next == len(s.orders) {
		return nil, io.EOF
	}
	o := *s.orders[s.next]
	s.next++
	o.Results = slices.Clone(o.Results)
	return &o, nil
}

// openScanner opens the trace as a Scanner that, as the store's and the
// reader's do, decodes every line into the caller's Order and its lists.
func (os orders) openScanner() (ordertrace.Source, error) {
	return &scanningSource{sliceSource{orders: os}}, nil
}

type scanningSource struct{ sliceSource }

func (s *scanningSource) Scan(o *ordertrace.Order) error {
	n, err := s.Next()
	if err != nil {
		return err
	}
	segs := append(o.Segments[:0], n.Segments...)
	reqs := append(o.Requests[:0], n.Requests...)
	ress := append(o.Results[:0], n.Results...)
	*o = *n
	o.Segments, o.Requests, o.Results = segs, reqs, ress
	return nil
}

// ord is an order that provides one result of bytes bytes at its end.
func ord(id, parent int64, madeAt, dur float64, reqs ...ordertrace.Request) *ordertrace.Order {
	return &ordertrace.Order{ID: id, Parent: parent, Proc: "p", MadeAt: madeAt, Duration: dur,
		Requests: reqs, Results: []ordertrace.Result{{At: dur}}}
}

func rq(order int64, at float64) ordertrace.Request { return ordertrace.Request{Order: order, At: at} }

// withBytes sets the bytes of o's arguments and results.
func withBytes(o *ordertrace.Order, args, result int64) *ordertrace.Order {
	o.ArgBytes = args
	for i := range o.Results {
		o.Results[i].Bytes = result
	}
	return o
}

func simulate(t *testing.T, tr orders, cl Cluster, opt Options) *Result {
	t.Helper()
	r, err := Simulate(tr.open, cl, opt)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// schedules simulates and returns the schedule of every order by id.
func schedules(t *testing.T, tr orders, cl Cluster, opt Options) (*Result, map[int64]OrderResult) {
	t.Helper()
	got := map[int64]OrderResult{}
	opt.OnOrder = func(r OrderResult) {
		r.Stretches = slices.Clone(r.Stretches) // the simulation reuses them
		got[r.ID] = r
	}
	return simulate(t, tr, cl, opt), got
}

func near(a, b float64) bool { return math.Abs(a-b) <= 1e-9*max(1, math.Abs(b)) }

func ordertraceRequest(order int64, result int, at float64) ordertrace.Request {
	return ordertrace.Request{Order: order, Result: result, At: at}
}

func posInf() float64 { return math.Inf(1) }
func nan() float64    { return math.NaN() }
