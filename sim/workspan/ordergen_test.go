package workspan

import (
	"bytes"
	"io"
	"testing"

	"github.com/presage-dvm/presage/ingest/ordergen"
	"github.com/presage-dvm/presage/sim/internal/requeststore"
	"github.com/presage-dvm/presage/sim/ordertrace"
)

// TestAgainstClosedForms compares the analysis of generated traces with
// the closed forms of their shapes.
func TestAgainstClosedForms(t *testing.T) {
	opts := []ordergen.Options{
		{Shape: ordergen.DivideAndConquer, Depth: 8, Leaf: 2, Split: 0.5, Combine: 1, ArgBytes: 1000, ResultBytes: 500},
		{Shape: ordergen.DivideAndConquer, Depth: 0, Leaf: 3},
		{Shape: ordergen.Pipeline, Stages: 5, Items: 40, Leaf: 1, Feed: 0.25, Combine: 0.5, ArgBytes: 100, ResultBytes: 100},
		{Shape: ordergen.Pipeline, Stages: 3, Items: 30, Leaf: 1, Feed: 2, ArgBytes: 100, ResultBytes: 100},
		{Shape: ordergen.Pipeline, Stages: 3, Items: 30, Leaf: 1, Feed: 1.05, ResultBytes: 100},
		{Shape: ordergen.MasterWorker, Workers: 16, Rounds: 5, Leaf: 3, Feed: 0.1, Combine: 1, ArgBytes: 4000, ResultBytes: 8},
		{Shape: ordergen.MasterWorker, Workers: 100, Leaf: 1},
	}
	nets := []Network{{}, {Latency: 0.01}, {Latency: 0.001, Bandwidth: 1e4}, {Latency: 0.2, Bandwidth: 1e3}}
	for _, opt := range opts {
		var buf bytes.Buffer
		if err := ordergen.Generate(&buf, opt); err != nil {
			t.Fatal(err)
		}
		for _, net := range nets {
			want, err := ordergen.Expect(opt, net.Latency, net.Bandwidth)
			if err != nil {
				t.Fatal(err)
			}
			r, err := ordertrace.NewReader(bytes.NewReader(buf.Bytes()), "gen.jsonl")
			if err != nil {
				t.Fatal(err)
			}
			got, err := Analyze(r, net)
			if err != nil {
				t.Fatal(err)
			}
			if got.Orders != want.Orders || !near(got.Work, want.Work) || !near(got.Span, want.Span) || !near(got.BurdenedSpan, want.BurdenedSpan) {
				t.Errorf("%+v on %+v:\n got %+v\nwant %+v", opt, net, got, want)
			}
		}
	}
}

// TestCountedForgets: with the counts, the analysis of a generated trace
// holds only the orders still needed, none at the end, and agrees with
// Analyze. Read in id order, a pipeline's stage orders are forgotten as
// soon as the next item's read (main, waiting for each item's last stage
// in turn, holds the item's orders meanwhile), a master's tasks at once
// (main requests them in order); a divide and conquer, numbered level by
// level, holds an inner order until its children, twice its id, are read.
func TestCountedForgets(t *testing.T) {
	tests := []struct {
		opt      ordergen.Options
		mostHeld int
	}{
		{ordergen.Options{Shape: ordergen.Pipeline, Stages: 4, Items: 500, Leaf: 1, Feed: 0.1}, 4 + 1},
		{ordergen.Options{Shape: ordergen.MasterWorker, Workers: 20, Rounds: 50, Leaf: 1, Feed: 0.1}, 1},
		{ordergen.Options{Shape: ordergen.DivideAndConquer, Depth: 10, Leaf: 1, Split: 0.1, Combine: 0.5}, 1 << 10},
	}
	for _, tt := range tests {
		t.Run(string(tt.opt.Shape), func(t *testing.T) {
			orders := generated(t, tt.opt)
			net := Network{Latency: 0.01, Bandwidth: 1e6}
			s := newSchedule(net, countsOf(t, orders))
			peak := 0
			for _, o := range orders {
				if err := s.add(o); err != nil {
					t.Fatal(err)
				}
				peak = max(peak, s.recs.a.Held())
			}
			t.Logf("%d orders, at most %d records held", len(orders), peak)
			if peak > tt.mostHeld || s.recs.a.Held() != 0 {
				t.Errorf("%d of %d records held at most, %d at the end; want at most %d, then none", peak, len(orders), s.recs.a.Held(), tt.mostHeld)
			}
			want, err := Analyze(&slice{orders: orders}, net)
			compareCounted(t, orders, net, want, err)
		})
	}
}

// generated returns the orders of the trace opt generates, read by the
// Reader.
func generated(tb testing.TB, opt ordergen.Options) []*ordertrace.Order {
	tb.Helper()
	var buf bytes.Buffer
	if err := ordergen.Generate(&buf, opt); err != nil {
		tb.Fatal(err)
	}
	r, err := ordertrace.NewReader(&buf, "gen.jsonl")
	if err != nil {
		tb.Fatal(err)
	}
	orders, err := ordertrace.ReadAll(r)
	if err != nil {
		tb.Fatal(err)
	}
	return orders
}

// countsOf returns the counts of orders.
func countsOf(tb testing.TB, orders []*ordertrace.Order) *ordertrace.Counts {
	tb.Helper()
	c := new(ordertrace.Counts)
	for _, o := range orders {
		if err := c.Add(o); err != nil {
			tb.Fatal(err)
		}
	}
	return c
}

// TestScannerListsKept: read through a Scanner that reuses the lists of
// the Order it reads into, the analysis gives what it gives on fresh
// orders, long lists (main's, taken rather than copied) and short ones
// (the stages', copied) alike.
func TestScannerListsKept(t *testing.T) {
	orders := generated(t, ordergen.Options{Shape: ordergen.Pipeline, Stages: 3, Items: 1100, Leaf: 1, Feed: 0.5, Jitter: 0.3})
	if !requeststore.Keeps(orders[0].Requests) {
		t.Fatalf("main has %d requests, which the store copies: want a list it keeps", len(orders[0].Requests))
	}
	net := Network{Latency: 0.01, Bandwidth: 1e6}
	want, err := Analyze(&slice{orders: orders}, net)
	if err != nil {
		t.Fatal(err)
	}
	got, err := Analyze(&reusing{orders: orders}, net)
	if err != nil || got != want {
		t.Errorf("through a Scanner: %+v, %v; want %+v", got, err, want)
	}
}

// reusing is a Scanner of orders that decodes each into the caller's
// Order and its lists' memory, as ordertrace's readers do.
type reusing struct{ orders []*ordertrace.Order }

func (r *reusing) Next() (*ordertrace.Order, error) {
	o := new(ordertrace.Order)
	return o, r.Scan(o)
}

func (r *reusing) Scan(o *ordertrace.Order) error {
	if len(r.orders) == 0 {
		return io.EOF
	}
	next := r.orders[0]
	r.orders = r.orders[1:]
	reqs, res := o.Requests[:0], o.Results[:0]
	*o = *next
	o.Requests = append(reqs, next.Requests...)
	o.Results = append(res, next.Results...)
	return nil
}
