package stage_test

import (
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/presage-dvm/presage/ingest"
	"github.com/presage-dvm/presage/ingest/tracegen"
	"github.com/presage-dvm/presage/internal/golden"
	"github.com/presage-dvm/presage/internal/stage"
	"github.com/presage-dvm/presage/internal/storetest"
	"github.com/presage-dvm/presage/schema/store"
	"github.com/presage-dvm/presage/sim/result"
)

// BenchmarkPredictStored is `presage predict` of an ingested trace less
// the process start: stream the trace from the store, simulate, save the
// run with its per-processor values. The traces are the 880 K calls of
// jac1d_x40000 and a 1 M-call Jacobi trace of tracegen (N = 256, with
// intervals); the machine is Predictor.par's cluster with 8,192 nodes of
// two processors, so that 128x128 fits.
func BenchmarkPredictStored(b *testing.B) {
	ctx := context.Background()
	db := storetest.Open(b)
	text, err := os.ReadFile(golden.Path(b, "machines", "Predictor.par"))
	if err != nil {
		b.Fatal(err)
	}
	big := filepath.Join(b.TempDir(), "Predictor.par")
	if err := os.WriteFile(big, []byte(strings.Replace(string(text), "{512 x mvsP2}", "{8192 x mvsP2}", 1)), 0o644); err != nil {
		b.Fatal(err)
	}
	if _, err := ingest.Machine(ctx, db, big); err != nil {
		b.Fatal(err)
	}
	gen := filepath.Join(b.TempDir(), "j1m.ptr.gz")
	if _, err := tracegen.WriteFile(gen, tracegen.Options{Program: tracegen.Jacobi, N: 256, Calls: 1_000_000, Intervals: true, Seed: 1}); err != nil {
		b.Fatal(err)
	}
	for _, path := range []string{golden.Path(b, "traces", "jac1d_x40000.ptr.gz"), golden.Path(b, "traces", "jac_e4_L500_it4000.ptr.gz"), gen} {
		info, err := ingest.Trace(ctx, db, path, nil)
		if err != nil {
			b.Fatal(err)
		}
		for _, grid := range [][]int{{2, 2}, {8, 8}, {64, 64}, {128, 128}} {
			b.Run(fmt.Sprintf("%s/%s", info.Name, result.GridString(grid)), func(b *testing.B) {
				b.ReportAllocs()
				defer reportCPU(b)()
				for b.Loop() {
					if _, err := stage.PredictOne(ctx, db, stage.PredictRequest{Trace: info.Name, Machine: "Predictor", Config: result.Config{Grid: grid}}); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(info.Calls)*float64(b.N)/b.Elapsed().Seconds(), "calls/s")
			})
		}
	}
	// Storing one run alone, per-processor values included: its share of
	// a prediction is what the compact per-processor storage is for.
	for _, trace := range []string{"jac1d_x40000", "jac_e4_L500_it4000"} {
		for _, grid := range [][]int{{8, 8}, {64, 64}} {
			run, err := stage.PredictOne(ctx, db, stage.PredictRequest{Trace: trace, Machine: "Predictor", Config: result.Config{Grid: grid}})
			if err != nil {
				b.Fatal(err)
			}
			b.Run(fmt.Sprintf("store/%s/%s", trace, result.GridString(grid)), func(b *testing.B) {
				for b.Loop() {
					if err := db.SaveRun(ctx, run, store.SaveOptions{}); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// BenchmarkPredictFile is `presage predict FILE --grid 1` on a fresh store
// less the process start: the machine file ingested, then the trace file
// (jac1d_x40000, inflated beforehand as `just compare-original` does)
// ingested and predicted in one pass (stage.PredictFile), the run stored.
func BenchmarkPredictFile(b *testing.B) {
	ctx := context.Background()
	gz, err := os.Open(golden.Path(b, "traces", "jac1d_x40000.ptr.gz"))
	if err != nil {
		b.Fatal(err)
	}
	defer gz.Close()
	zr, err := gzip.NewReader(gz)
	if err != nil {
		b.Fatal(err)
	}
	path := filepath.Join(b.TempDir(), "jac1d_x40000.ptr")
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	if _, err := io.Copy(f, zr); err != nil {
		b.Fatal(err)
	}
	if err := f.Close(); err != nil {
		b.Fatal(err)
	}
	machine := golden.Path(b, "machines", "Predictor.par")
	dir := b.TempDir()
	i := 0
	defer reportCPU(b)()
	for b.Loop() {
		i++
		db, err := store.Open(filepath.Join(dir, fmt.Sprintf("p%d.db", i)))
		if err != nil {
			b.Fatal(err)
		}
		if _, err := ingest.Machine(ctx, db, machine); err != nil {
			b.Fatal(err)
		}
		req := stage.PredictRequest{Machine: "Predictor", Config: result.Config{Grid: []int{1}}}
		if _, run, err := stage.PredictFile(ctx, db, path, req, ingest.TraceOptions{}); err != nil || run == nil {
			b.Fatalf("run %v, error %v", run, err)
		}
		db.Close()
	}
}

// reportCPU, deferred at the start of a benchmark, reports the process's
// CPU time (user + system, every goroutine's) per operation: the measure
// of docs/performance.md, which wall time on a shared machine is not.
func reportCPU(b *testing.B) func() {
	cpu := func() time.Duration {
		var ru syscall.Rusage
		if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
			b.Fatal(err)
		}
		return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	}
	start := cpu()
	return func() { b.ReportMetric(float64(cpu()-start)/float64(b.N), "cpu-ns/op") }
}
