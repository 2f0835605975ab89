package ingest_test

import (
	"compress/gzip"
	"context"
	"io"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/presage-dvm/presage/ingest"
	"github.com/presage-dvm/presage/internal/golden"
	"github.com/presage-dvm/presage/schema/store"
)

// benchTrace ingests the trace at path into a new store per iteration.
// MB/s are of the unpacked text per second of wall time; MB/cpu-s per
// second of CPU time of the process (user + system, every goroutine), the
// figure that says how fast the ingest is per core.
func benchTrace(b *testing.B, path string) {
	var text int64
	cpu0 := cpuTime(b)
	for b.Loop() {
		st, err := store.Open(filepath.Join(b.TempDir(), "b.db"))
		if err != nil {
			b.Fatal(err)
		}
		info, err := ingest.Trace(context.Background(), st, path, nil)
		if err != nil {
			b.Fatal(err)
		}
		text = info.Bytes
		st.Close()
	}
	b.SetBytes(text)
	b.ReportMetric(float64(text)*float64(b.N)/1e6/(cpuTime(b)-cpu0).Seconds(), "MB/cpu-s")
}

// cpuTime is the CPU time the process has used so far.
func cpuTime(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// gunzipTo writes the text of the gzip file at path into dir.
func gunzipTo(b *testing.B, path, dir string) string {
	f, err := os.Open(path)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		b.Fatal(err)
	}
	out := filepath.Join(dir, filepath.Base(path[:len(path)-len(".gz")]))
	w, err := os.Create(out)
	if err != nil {
		b.Fatal(err)
	}
	if _, err := io.Copy(w, zr); err != nil {
		b.Fatal(err)
	}
	if err := w.Close(); err != nil {
		b.Fatal(err)
	}
	return out
}

func BenchmarkTraceX1000(b *testing.B) { benchTrace(b, golden.Path(b, "traces", "jac1d_x1000.ptr.gz")) }
func BenchmarkTraceX40000(b *testing.B) {
	benchTrace(b, golden.Path(b, "traces", "jac1d_x40000.ptr.gz"))
}
func BenchmarkTraceX40000Text(b *testing.B) {
	benchTrace(b, gunzipTo(b, golden.Path(b, "traces", "jac1d_x40000.ptr.gz"), b.TempDir()))
}
