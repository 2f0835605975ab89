package workspan

import (
	"bytes"
	"io"
	"testing"

	"github.com/presage-dvm/presage/ingest/ordergen"
	"github.com/presage-dvm/presage/sim/ordertrace"
)

// The analysis speed in orders per second, with and without the trace's
// counts, the orders decoded beforehand so that only the analysis is
// timed.

func benchmarkAnalyze(b *testing.B, opt ordergen.Options) {
	var buf bytes.Buffer
	if err := ordergen.Generate(&buf, opt); err != nil {
		b.Fatal(err)
	}
	r, err := ordertrace.NewReader(&buf, "bench.jsonl")
	if err != nil {
		b.Fatal(err)
	}
	var orders []*ordertrace.Order
	for {
		o, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			b.Fatal(err)
		}
		orders = append(orders, o)
	}
	var counts ordertrace.Counts
	for _, o := range orders {
		if err := counts.Add(o); err != nil {
			b.Fatal(err)
		}
	}
	for _, counted := range []bool{false, true} {
		name := "uncounted"
		c := (*ordertrace.Counts)(nil)
		if counted {
			name, c = "counted", &counts
		}
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				src := &withHeader{slice{orders: orders}, r.Header()}
				if _, err := AnalyzeCounted(src, Network{Latency: 1e-4, Bandwidth: 1e9}, c); err != nil {
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

// withHeader is a slice with the header of its trace, like a Reader.
type withHeader struct {
	slice
	h ordertrace.Header
}

func (w *withHeader) Header() ordertrace.Header { return w.h }
