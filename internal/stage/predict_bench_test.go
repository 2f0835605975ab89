package stage_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

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
