package workspan

import (
	"flag"
	"io"
	"runtime"
	"testing"

	"github.com/presage-dvm/presage/ingest/ordergen"
	"github.com/presage-dvm/presage/sim/ordertrace"
)

var endToEndItems = flag.Int("endtoend.items", 100_000, "items of the 10-stage pipeline BenchmarkEndToEnd streams (10 orders each)")

// BenchmarkEndToEnd streams a generated pipeline through the Reader into
// the analysis, as `presage` would a recorded trace, and reports the
// memory the process holds at the end.
func BenchmarkEndToEnd(b *testing.B) {
	opt := ordergen.Options{Shape: ordergen.Pipeline, Stages: 10, Items: *endToEndItems, Leaf: 1, Feed: 0.1, Jitter: 0.2, ArgBytes: 1000, ResultBytes: 1000}
	for b.Loop() {
		pr, pw := io.Pipe()
		go func() { pw.CloseWithError(ordergen.Generate(pw, opt)) }()
		r, err := ordertrace.NewReader(pr, "pipeline.jsonl")
		if err != nil {
			b.Fatal(err)
		}
		s, err := Analyze(r, Network{Latency: 1e-4, Bandwidth: 1e9})
		if err != nil {
			b.Fatal(err)
		}
		if s.Orders != opt.Count() {
			b.Fatalf("%d orders, want %d", s.Orders, opt.Count())
		}
	}
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	b.ReportMetric(float64(opt.Count()*int64(b.N))/b.Elapsed().Seconds(), "orders/s")
	b.ReportMetric(float64(m.Sys)/(1<<20), "MB-sys")
}
