package tracedb

import (
	"context"
	"io"
	"path/filepath"
	"testing"

	"github.com/presage-dvm/presage/ingest/golden"
	"github.com/presage-dvm/presage/ingest/storetest"
	"github.com/presage-dvm/presage/schema"
)

// benchIngest ingests the trace into a new store per iteration; MB/s are
// of the unpacked text.
func benchIngest(b *testing.B, name string) {
	path := golden.Path(b, "traces", name)
	var text int64
	for b.Loop() {
		db, err := schema.Open(filepath.Join(b.TempDir(), "b.db"))
		if err != nil {
			b.Fatal(err)
		}
		info, err := Ingest(context.Background(), db, path, nil)
		if err != nil {
			b.Fatal(err)
		}
		text = info.Bytes
		db.Close()
	}
	b.SetBytes(text)
}

func BenchmarkIngestX1000(b *testing.B)  { benchIngest(b, "jac1d_x1000.ptr.gz") }
func BenchmarkIngestX40000(b *testing.B) { benchIngest(b, "jac1d_x40000.ptr.gz") }

// BenchmarkLoadX40000 loads the 880 K calls of jac1d_x40000, ingested once.
func BenchmarkLoadX40000(b *testing.B) {
	path := golden.Path(b, "traces", "jac1d_x40000.ptr.gz")
	db := storetest.Open(b)
	info, err := Ingest(context.Background(), db, path, nil)
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for b.Loop() {
		tr, err := Load(db, info.Name)
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
	path := golden.Path(b, "traces", "jac1d_x40000.ptr.gz")
	db := storetest.Open(b)
	info, err := Ingest(context.Background(), db, path, nil)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		s, err := OpenTrace(context.Background(), db, info)
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
