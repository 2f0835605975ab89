package stage_test

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/presage-dvm/presage/ingest"
	"github.com/presage-dvm/presage/ingest/tracegen"
	"github.com/presage-dvm/presage/internal/golden"
	"github.com/presage-dvm/presage/internal/stage"
	"github.com/presage-dvm/presage/schema/store"
	"github.com/presage-dvm/presage/sim/sweep"
)

// envInt reads a size of the benchmarks from the environment.
func envInt(name string, def int) int {
	if v, err := strconv.Atoi(os.Getenv(name)); err == nil && v > 0 {
		return v
	}
	return def
}

// benchPlan writes a generated Jacobi trace of PRESAGE_BENCH_CALLS calls
// (default 1,000,000, with intervals) once, ingests it and plans
// PRESAGE_BENCH_CONFIGS configurations (default 16) spread evenly over the
// grids of 1..PRESAGE_BENCH_PROCS processors (default 64) up to rank 2
// (per-processor rows written up to 64 processors). Issue 12's sweep is
// PRESAGE_BENCH_CONFIGS=1000 PRESAGE_BENCH_PROCS=1024 with 2 workers.
func benchPlan(b *testing.B) (*store.Store, *stage.SweepPlan, string) {
	b.Helper()
	dir := b.TempDir()
	trace := filepath.Join(dir, "gen.ptr")
	if _, err := tracegen.WriteFile(trace, tracegen.Options{Program: tracegen.Jacobi, N: 256,
		Calls: envInt("PRESAGE_BENCH_CALLS", 1_000_000), Intervals: true}); err != nil {
		b.Fatal(err)
	}
	path := filepath.Join(dir, "bench.db")
	db, err := store.Open(path)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { db.Close() })
	if _, err := ingest.Trace(context.Background(), db, trace, nil); err != nil {
		b.Fatal(err)
	}
	os.Remove(trace)
	if _, err := ingest.Machine(context.Background(), db, golden.Path(b, "machines", "Predictor.par")); err != nil {
		b.Fatal(err)
	}
	grids := sweep.GridsInRange(1, envInt("PRESAGE_BENCH_PROCS", 64), 2)
	n := envInt("PRESAGE_BENCH_CONFIGS", 16)
	var tstart []float64
	for i := range max(1, n/len(grids)+1) {
		tstart = append(tstart, float64(i+1)*1e-6)
	}
	p, err := stage.PlanSweep(context.Background(), db, stage.SweepRequest{Trace: "gen", Machines: []string{"Predictor"}, Grids: grids,
		TStart: tstart, PerProcMax: 64})
	if err != nil {
		b.Fatal(err)
	}
	// Every k-th configuration, so that small and large grids (1..64
	// processors) are represented as in a full sweep.
	var sel []sweep.Config
	for i := 0; i < len(p.Configs) && len(sel) < n; i += max(1, len(p.Configs)/n) {
		sel = append(sel, p.Configs[i])
	}
	p.Configs = sel
	return db, p, path
}

// heapPeak samples HeapInuse every 10 ms until stop is called.
func heapPeak() (stop func() uint64) {
	var peak uint64
	var wg sync.WaitGroup
	done := make(chan struct{})
	wg.Add(1)
	go func() {
		defer wg.Done()
		var ms runtime.MemStats
		for {
			runtime.ReadMemStats(&ms)
			peak = max(peak, ms.HeapInuse)
			select {
			case <-done:
				return
			case <-time.After(10 * time.Millisecond):
			}
		}
	}()
	return func() uint64 { close(done); wg.Wait(); return peak }
}

func fileBytes(b *testing.B, db *store.Store, path string) int64 {
	if err := db.Checkpoint(context.Background()); err != nil {
		b.Fatal(err)
	}
	st, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	return st.Size()
}

// BenchmarkSweep runs whole sweeps (simulation and storing) with 1, 2 and
// 4 workers and reports the aggregated call simulations per second,
// configurations per second, the heap the loaded trace takes, the peak
// heap in use during the sweeps and the store's growth per configuration.
func BenchmarkSweep(b *testing.B) {
	db, p, path := benchPlan(b)
	var ms runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&ms)
	base := ms.HeapInuse
	i := 0
	for _, workers := range []int{1, 2, 4} {
		b.Run("workers="+strconv.Itoa(workers), func(b *testing.B) {
			before := fileBytes(b, db, path)
			runtime.GC()
			stop := heapPeak()
			var calls int64
			configs := 0
			for b.Loop() {
				i++
				p.Def.Extra = strconv.Itoa(i) // a new sweep: nothing stored yet
				sum, err := stage.Sweep(context.Background(), db, p, stage.SweepOptions{Workers: workers})
				if err != nil {
					b.Fatal(err)
				}
				calls += sum.Calls
				configs += sum.Ran
			}
			peak := stop()
			s := b.Elapsed().Seconds()
			b.ReportMetric(float64(calls)/s, "calls/s")
			b.ReportMetric(float64(configs)/s, "configs/s")
			b.ReportMetric(float64(base)/(1<<20), "trace-heap-MB")
			b.ReportMetric(float64(peak-min(peak, base))/(1<<20), "peak-extra-heap-MB")
			b.ReportMetric(float64(fileBytes(b, db, path)-before)/float64(configs), "DB-bytes/config")
		})
	}
}

// BenchmarkStore measures the writer alone: storing one simulated run (8
// processors, per-processor rows written) per operation.
func BenchmarkStore(b *testing.B) {
	db, p, path := benchPlan(b)
	c := p.Configs[0]
	for _, x := range p.Configs {
		if x.Procs() == 8 {
			c = x
			break
		}
	}
	run, err := p.Simulate(context.Background(), c)
	if err != nil {
		b.Fatal(err)
	}
	sum, err := stage.SweepConfigs(context.Background(), db, p, nil, stage.SweepOptions{})
	if err != nil {
		b.Fatal(err)
	}
	run.SweepID, run.TraceID = sum.SweepID, p.Trace.Info.ID
	before := fileBytes(b, db, path)
	i := 0
	for b.Loop() {
		i++ // every run at its own position of the sweep
		if _, err := db.SaveSweepRun(context.Background(), run, i, store.SaveOptions{PerProcMax: 64}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "runs/s")
	b.ReportMetric(float64(fileBytes(b, db, path)-before)/float64(b.N), "DB-bytes/run")
}
