package ordergen

import (
	"io"
	"testing"
)

// The generation speed, in orders written per second.

func benchmarkGenerate(b *testing.B, opt Options) {
	for b.Loop() {
		if err := Generate(io.Discard, opt); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(opt.Count()*int64(b.N))/b.Elapsed().Seconds(), "orders/s")
}

func BenchmarkDivideAndConquer1M(b *testing.B) {
	benchmarkGenerate(b, Options{Shape: DivideAndConquer, Depth: 19, Leaf: 1, Split: 0.1, Combine: 0.5, Jitter: 0.2, ArgBytes: 64, ResultBytes: 64})
}

func BenchmarkPipeline1M(b *testing.B) {
	benchmarkGenerate(b, Options{Shape: Pipeline, Stages: 10, Items: 100_000, Leaf: 1, Feed: 0.1, Jitter: 0.2})
}

func BenchmarkMasterWorker1M(b *testing.B) {
	benchmarkGenerate(b, Options{Shape: MasterWorker, Workers: 1000, Rounds: 1000, Leaf: 1, Feed: 0.01, Jitter: 0.2})
}
