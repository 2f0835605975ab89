package ptr

import (
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"testing"

	"github.com/presage-dvm/presage/internal/golden"
)

// benchRead reads the whole trace in data once per iteration; MB/s are of
// the unpacked text.
func benchRead(b *testing.B, data []byte) { benchReadWith(b, data, nil) }

// benchReadWith is benchRead with setup applied to each Reader.
func benchReadWith(b *testing.B, data []byte, setup func(*Reader)) {
	b.Helper()
	var text int64
	for b.Loop() {
		r, err := NewReader(bytes.NewReader(data), "bench")
		if err != nil {
			b.Fatal(err)
		}
		if setup != nil {
			setup(r)
		}
		for {
			_, err := r.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				b.Fatal(err)
			}
		}
		text = r.TextBytes()
	}
	b.SetBytes(text)
}

func readGolden(b testing.TB, name string) []byte {
	data, err := os.ReadFile(golden.Path(b, "traces", name))
	if err != nil {
		b.Fatal(err)
	}
	return data
}

func gunzip(b *testing.B, data []byte) []byte {
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		b.Fatal(err)
	}
	text, err := io.ReadAll(zr)
	if err != nil {
		b.Fatal(err)
	}
	return text
}

// The gzip benchmarks include the inflation, as reading the file does.
func BenchmarkReadX40000Gzip(b *testing.B) { benchRead(b, readGolden(b, "jac1d_x40000.ptr.gz")) }
func BenchmarkReadX40000Text(b *testing.B) {
	benchRead(b, gunzip(b, readGolden(b, "jac1d_x40000.ptr.gz")))
}
func BenchmarkReadX1000Gzip(b *testing.B) { benchRead(b, readGolden(b, "jac1d_x1000.ptr.gz")) }
func BenchmarkReadX1000Text(b *testing.B) {
	benchRead(b, gunzip(b, readGolden(b, "jac1d_x1000.ptr.gz")))
}
func BenchmarkReadAdi(b *testing.B) { benchRead(b, readGolden(b, "adi.ptr")) }

// BenchmarkReadX40000TextOnly reads as the ingest does: texts kept,
// parameters not parsed.
func BenchmarkReadX40000TextOnly(b *testing.B) {
	benchReadWith(b, gunzip(b, readGolden(b, "jac1d_x40000.ptr.gz")), (*Reader).TextOnly)
}
