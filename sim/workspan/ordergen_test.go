package workspan

import (
	"bytes"
	"testing"

	"github.com/presage-dvm/presage/ingest/ordergen"
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
