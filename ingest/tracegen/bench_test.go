package tracegen

import (
	"io"
	"path/filepath"
	"testing"
)

// The generation speed of a million-call trace, in calls per second.

func benchmarkWrite(b *testing.B, opt Options) {
	var calls int
	for b.Loop() {
		n, err := Write(io.Discard, opt)
		if err != nil {
			b.Fatal(err)
		}
		calls += n
	}
	b.ReportMetric(float64(calls)/b.Elapsed().Seconds(), "calls/s")
}

func BenchmarkWriteJacobi1M(b *testing.B) {
	benchmarkWrite(b, Options{Program: Jacobi, N: 500, Calls: 1_000_000})
}

func BenchmarkWriteJacobiIntervals1M(b *testing.B) {
	benchmarkWrite(b, Options{Program: Jacobi, N: 500, Calls: 1_000_000, Intervals: true})
}

func BenchmarkWriteGauss1M(b *testing.B) {
	benchmarkWrite(b, Options{Program: Gauss, N: 200, Calls: 1_000_000})
}

func BenchmarkWriteFileGzip1M(b *testing.B) {
	path := filepath.Join(b.TempDir(), "jac.ptr.gz")
	var calls int
	for b.Loop() {
		n, err := WriteFile(path, Options{Program: Jacobi, N: 500, Calls: 1_000_000})
		if err != nil {
			b.Fatal(err)
		}
		calls += n
	}
	b.ReportMetric(float64(calls)/b.Elapsed().Seconds(), "calls/s")
}
