package store_test

import (
	"context"
	"io"
	"testing"

	"github.com/presage-dvm/presage/internal/golden"
	"github.com/presage-dvm/presage/internal/storetest"
)

// BenchmarkLoadX40000 loads the 880 K calls of jac1d_x40000, ingested once.
func BenchmarkLoadX40000(b *testing.B) {
	st := storetest.Open(b)
	info := ingestTrace(b, st, golden.Path(b, "traces", "jac1d_x40000.ptr.gz"))
	b.ResetTimer()
	for b.Loop() {
		tr, err := st.LoadTrace(info.Name)
		if err != nil {
			b.Fatal(err)
		}
		if len(tr.Calls) != info.Calls {
			b.Fatalf("%d calls, want %d", len(tr.Calls), info.Calls)
		}
	}
	b.ReportMetric(float64(info.Calls)*float64(b.N)/b.Elapsed().Seconds(), "calls/s")
}

// BenchmarkStreamX40000 streams the 880 K calls of jac1d_x40000 from its
// pack, as a prediction reads them.
func BenchmarkStreamX40000(b *testing.B) {
	st := storetest.Open(b)
	info := ingestTrace(b, st, golden.Path(b, "traces", "jac1d_x40000.ptr.gz"))
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		s, err := st.OpenTrace(context.Background(), info)
		if err != nil {
			b.Fatal(err)
		}
		n := 0
		for {
			_, err := s.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				b.Fatal(err)
			}
			n++
		}
		if n != info.Calls {
			b.Fatalf("%d calls, want %d", n, info.Calls)
		}
		s.Close()
	}
	b.ReportMetric(float64(info.Calls)*float64(b.N)/b.Elapsed().Seconds(), "calls/s")
}
