package workspan

import (
	"testing"

	"github.com/presage-dvm/presage/ingest/ordergen"
	"github.com/presage-dvm/presage/sim/ordertrace"
)

// The analysis speed in orders per second, with and without the trace's
// counts, the orders decoded beforehand so that only the analysis is
// timed.

func benchmarkAnalyze(b *testing.B, opt ordergen.Options) {
	orders := generated(b, opt)
	counts := countsOf(b, orders)
	for _, counted := range []bool{false, true} {
		name := "uncounted"
		c := (*ordertrace.Counts)(nil)
		if counted {
			name, c = "counted", counts
		}
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				if _, err := AnalyzeCounted(&slice{orders: orders}, Network{Latency: 1e-4, Bandwidth: 1e9}, c); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(len(orders)*b.N)/b.Elapsed().Seconds(), "orders/s")
		})
	}
}

func BenchmarkDivideAndConquer(b *testing.B) {
	benchmarkAnalyze(b, ordergen.Options{Shape: ordergen.DivideAndConquer, Depth: 18, Leaf: 1, Split: 0.1, Combine: 0.5, Jitter: 0.3, ArgBytes: 64, ResultBytes: 64})
}

func BenchmarkPipeline(b *testing.B) {
	benchmarkAnalyze(b, ordergen.Options{Shape: ordergen.Pipeline, Stages: 8, Items: 50_000, Leaf: 1, Feed: 0.1, Jitter: 0.3})
}

func BenchmarkMasterWorker(b *testing.B) {
	benchmarkAnalyze(b, ordergen.Options{Shape: ordergen.MasterWorker, Workers: 500, Rounds: 800, Leaf: 1, Feed: 0.01, Jitter: 0.3})
}
