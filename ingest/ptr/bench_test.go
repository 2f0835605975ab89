package ptr

import (
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
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
		text = readToEnd(b, r)
	}
	b.SetBytes(text)
}

// readToEnd reads every call of r and returns the size of its text.
func readToEnd(b *testing.B, r *Reader) int64 {
	for {
		_, err := r.Next()
		if err == io.EOF {
			return r.TextBytes()
		}
		if err != nil {
			b.Fatal(err)
		}
	}
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

// BenchmarkOpenFileTextOnly reads a large plain trace from disk as
// `presage predict` does: through OpenFile, texts kept, parameters not
// parsed. The file is PTR_BENCH_FILE, by default the text of
// jac1d_x40000 (217 MB) written to a temporary folder.
func BenchmarkOpenFileTextOnly(b *testing.B) {
	path := os.Getenv("PTR_BENCH_FILE")
	if path == "" {
		path = filepath.Join(b.TempDir(), "jac1d_x40000.ptr")
		if err := os.WriteFile(path, gunzip(b, readGolden(b, "jac1d_x40000.ptr.gz")), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	var text int64
	for b.Loop() {
		r, err := OpenFile(path)
		if err != nil {
			b.Fatal(err)
		}
		r.TextOnly()
		text = readToEnd(b, r)
		r.Close()
	}
	b.SetBytes(text)
}

// keptLines returns the kept lines of the jac1d_x1000 trace.
func keptLines(b *testing.B) [][]byte {
	var lines [][]byte
	for raw := range bytes.Lines(gunzip(b, readGolden(b, "jac1d_x1000.ptr.gz"))) {
		if l, ok := keep(bytes.TrimRight(raw, "\r\n")); ok {
			lines = append(lines, l)
		}
	}
	return lines
}

func benchClassify(b *testing.B, classify func([]byte, *funcLine) (kind, string)) {
	lines := keptLines(b)
	var fl funcLine
	n := 0
	for _, l := range lines {
		n += len(l)
	}
	b.SetBytes(int64(n))
	for b.Loop() {
		for _, l := range lines {
			classify(l, &fl)
		}
	}
}

// BenchmarkClassify and BenchmarkClassifyGeneral classify the kept lines of
// a real trace with and without the fast path.
func BenchmarkClassify(b *testing.B)        { benchClassify(b, classify) }
func BenchmarkClassifyGeneral(b *testing.B) { benchClassify(b, classifyGeneral) }
