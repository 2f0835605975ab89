package stage_test

import (
	"context"
	"fmt"
	"math"
	"reflect"
	"testing"

	"github.com/presage-dvm/presage/ingest"
	"github.com/presage-dvm/presage/internal/golden"
	"github.com/presage-dvm/presage/internal/stage"
	"github.com/presage-dvm/presage/internal/storetest"
	"github.com/presage-dvm/presage/sim"
	"github.com/presage-dvm/presage/sim/result"
)

// TestPredictFileIsPredictOne: a trace file predicted as it is ingested
// (the one pass of `presage predict FILE`) gives the run, values bit for
// bit, and the picture that PredictOne gives of the stored trace; a file
// stored already is not predicted by PredictFile.
func TestPredictFileIsPredictOne(t *testing.T) {
	ctx := context.Background()
	for _, name := range []string{"jac.ptr", "sor.ptr", "tasks.ptr", "jac1d_x1000.ptr.gz"} {
		for _, grid := range [][]int{{1}, {2, 2}, {4, 8}} {
			t.Run(fmt.Sprintf("%s/%s", name, result.GridString(grid)), func(t *testing.T) {
				db := storetest.Open(t)
				if _, err := ingest.Machine(ctx, db, golden.Path(t, "machines", "Predictor.par")); err != nil {
					t.Fatal(err)
				}
				path := golden.Path(t, "traces", name)
				req := stage.PredictRequest{Machine: "Predictor", Config: result.Config{Grid: grid}}
				info, once, err := stage.PredictFile(ctx, db, path, req, ingest.TraceOptions{})
				if err != nil {
					t.Fatal(err)
				}
				if once == nil {
					t.Fatal("a new trace file was not predicted as it was ingested")
				}
				req.Trace = info.Name
				apart, err := stage.PredictOne(ctx, db, req)
				if err != nil {
					t.Fatal(err)
				}
				a, err := db.Run(once.ID)
				if err != nil {
					t.Fatal(err)
				}
				b, err := db.Run(apart.ID)
				if err != nil {
					t.Fatal(err)
				}
				if d := runsDiffer(a, b); d != "" {
					t.Errorf("predicted in the ingest's pass and apart: %s", d)
				}
				ta, err := db.RunTimeline(ctx, once.ID)
				if err != nil {
					t.Fatal(err)
				}
				tb, err := db.RunTimeline(ctx, apart.ID)
				if err != nil {
					t.Fatal(err)
				}
				if ta == nil || !reflect.DeepEqual(ta, tb) {
					t.Errorf("pictures differ: in the pass %+v, apart %+v", ta, tb)
				}
				again, run, err := stage.PredictFile(ctx, db, path, req, ingest.TraceOptions{})
				if err != nil || run != nil || !again.Existing {
					t.Errorf("a stored file again: existing %v, run %v, error %v", again.Existing, run, err)
				}
			})
		}
	}
}

// runsDiffer says how two stored runs differ in their configuration,
// program, intervals and values, "" when they do not.
func runsDiffer(a, b *result.Run) string {
	if a.Program != b.Program || a.TraceID != b.TraceID || !reflect.DeepEqual(a.Config, b.Config) || a.ReportRoot != b.ReportRoot {
		return fmt.Sprintf("runs %q %d %+v and %q %d %+v", a.Program, a.TraceID, a.Config, b.Program, b.TraceID, b.Config)
	}
	if !reflect.DeepEqual(a.Warnings, b.Warnings) {
		return fmt.Sprintf("warnings %v and %v", a.Warnings, b.Warnings)
	}
	if len(a.Intervals) != len(b.Intervals) {
		return fmt.Sprintf("%d and %d intervals", len(a.Intervals), len(b.Intervals))
	}
	for i := range a.Intervals {
		x, y := a.Intervals[i], b.Intervals[i]
		if x.ID != y.ID || x.Parent != y.Parent || x.Line != y.Line || len(x.Procs) != len(y.Procs) {
			return fmt.Sprintf("interval %d: %+v and %+v", i, x, y)
		}
		for c := range x.Values {
			if math.Float64bits(x.Values[c]) != math.Float64bits(y.Values[c]) {
				return fmt.Sprintf("interval %d, %s: %v and %v", x.ID, result.Char(c), x.Values[c], y.Values[c])
			}
		}
		for p := range x.Procs {
			for c := range x.Procs[p].Values {
				if math.Float64bits(x.Procs[p].Values[c]) != math.Float64bits(y.Procs[p].Values[c]) {
					return fmt.Sprintf("interval %d, processor %d, %s differ", x.ID, p, result.Char(c))
				}
			}
		}
	}
	return ""
}

// TestPredictFileConfigurationFails: when the configuration fails, not
// the trace (more simulator state than allowed, times that overflow), the
// trace is stored as `ingest trace` stores it and PredictFile returns no
// run: PredictOne then gives the configuration's error.
func TestPredictFileConfigurationFails(t *testing.T) {
	ctx := context.Background()
	for _, req := range []stage.PredictRequest{
		{Machine: "Predictor", Config: result.Config{Grid: []int{8, 8}}, Options: sim.Options{MaxState: 1}},
		{Machine: "Predictor", Config: result.Config{Grid: []int{2, 2}, Power: 1e-320}},
	} {
		db := storetest.Open(t)
		if _, err := ingest.Machine(ctx, db, golden.Path(t, "machines", "Predictor.par")); err != nil {
			t.Fatal(err)
		}
		info, run, err := stage.PredictFile(ctx, db, golden.Path(t, "traces", "jac.ptr"), req, ingest.TraceOptions{})
		if err != nil || run != nil || info.ID == 0 {
			t.Fatalf("%+v: trace %d, run %v, error %v; want the trace stored, no run", req, info.ID, run, err)
		}
		req.Trace = info.Name
		if _, err := stage.PredictOne(ctx, db, req); err == nil {
			t.Errorf("%+v: PredictOne predicted it", req)
		} else {
			t.Logf("%v", err)
		}
	}
}
