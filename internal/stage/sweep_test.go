package stage_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/presage-dvm/presage/internal/golden"
	"github.com/presage-dvm/presage/internal/stage"
	"github.com/presage-dvm/presage/internal/sweeptest"
	"github.com/presage-dvm/presage/schema/store"
	"github.com/presage-dvm/presage/sim/result"
)

func jacStore(t *testing.T) *store.Store {
	t.Helper()
	db, _ := sweeptest.Store(t, "s.db",
		[]string{golden.Path(t, "traces", "jac.ptr")},
		[]string{golden.Path(t, "machines", "Predictor.par")})
	return db
}

// jacRequest: 4 grids x 2 start-up times x 2 powers = 16 configurations.
func jacRequest() stage.SweepRequest {
	return stage.SweepRequest{Trace: "jac", Machines: []string{"Predictor"},
		Grids:  [][]int{{1}, {2}, {2, 2}, {4, 2}},
		TStart: []float64{0, 20e-6}, Power: []float64{0, 2}, PerProcMax: 4}
}

func plan(t *testing.T, db *store.Store, req stage.SweepRequest) *stage.SweepPlan {
	t.Helper()
	p, err := stage.PlanSweep(context.Background(), db, req)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestSweepMatchesPredict: every stored configuration holds what a single
// prediction of it stores, and re-running the sweep adds nothing.
func TestSweepMatchesPredict(t *testing.T) {
	db := jacStore(t)
	p := plan(t, db, jacRequest())
	if len(p.Configs) != 16 || p.Skipped != 0 {
		t.Fatalf("%d configurations, %d skipped; want 16, 0", len(p.Configs), p.Skipped)
	}
	sum, err := stage.Sweep(context.Background(), db, p, stage.SweepOptions{Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	if sum.Ran != 16 || sum.Existing != 0 || sum.Calls != 16*int64(p.Trace.Info.Calls) {
		t.Errorf("summary %+v", sum)
	}
	out, err := db.SweepOutcomes(context.Background(), sum.SweepID)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range p.Configs {
		o, ok := out[c.Index]
		if !ok {
			t.Fatalf("configuration %d not stored", c.Index)
		}
		want, err := stage.PredictOne(context.Background(), db, stage.PredictRequest{Trace: "jac", Machine: "Predictor",
			Config: result.Config{Grid: c.Grid, TStart: c.TStart, Power: c.Power}})
		if err != nil {
			t.Fatal(err)
		}
		if w := want.Intervals[0].Values[result.ExecutionTime]; o.Time != w || o.Time <= 0 {
			t.Errorf("%s: sweep time %g, predict %g", p.Describe(c), o.Time, w)
		}
		if w := want.Intervals[0].Values[result.Efficiency]; o.Efficiency != w {
			t.Errorf("%s: sweep efficiency %g, predict %g", p.Describe(c), o.Efficiency, w)
		}
		got, err := db.Run(o.RunID)
		if err != nil {
			t.Fatal(err)
		}
		// Per-processor rows only up to PerProcMax = 4 processors, the
		// comparative characteristics always.
		hasProcs := len(got.Intervals[0].Procs) > 0
		if hasProcs != (c.Procs() <= 4) {
			t.Errorf("%s: per-processor rows stored: %v", p.Describe(c), hasProcs)
		}
	}
	if stats := storeCount(t, db, "interval_stats"); stats < 2*16 {
		t.Errorf("%d interval_stats rows for 16 configurations and their 16 predictions", stats)
	}
	// The hash of this sweep's definition before the sweeps shared their
	// machinery: stores made then resume and merge under it.
	if h := p.Def.Hash(); h != "004afe4a553066d92242bd3d4773d9ef712584056beff3622460d04127f40aef" {
		t.Errorf("definition hash %s: the sweeps of earlier builds would not resume", h)
	}
	again, err := stage.Sweep(context.Background(), db, plan(t, db, jacRequest()), stage.SweepOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if again.SweepID != sum.SweepID || again.Ran != 0 || again.Existing != 16 {
		t.Errorf("re-run: %+v, want sweep %d with all 16 stored", again, sum.SweepID)
	}
	if sweeps := storeCount(t, db, "sweeps"); sweeps != 1 {
		t.Errorf("%d sweep rows, want 1", sweeps)
	}
}

// TestSweepResumesAfterCancel cancels a sweep after a few stored
// configurations, runs it again and compares every row with an
// uninterrupted sweep's.
func TestSweepResumesAfterCancel(t *testing.T) {
	for _, stopAfter := range []int{1, 7} {
		db := jacStore(t)
		p := plan(t, db, jacRequest())
		ctx, cancel := context.WithCancel(context.Background())
		sum, err := stage.Sweep(ctx, db, p, stage.SweepOptions{Workers: 2, Progress: func(pr stage.Progress) {
			if pr.Done == stopAfter {
				cancel()
			}
		}})
		cancel()
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("cancelled sweep: error %v", err)
		}
		if sum.Ran != stopAfter {
			t.Errorf("cancelled after %d: %d stored", stopAfter, sum.Ran)
		}
		if n := storeCount(t, db, "runs"); n != stopAfter {
			t.Errorf("cancelled after %d: %d runs in the store", stopAfter, n)
		}
		rest, err := stage.Sweep(context.Background(), db, plan(t, db, jacRequest()), stage.SweepOptions{Workers: 2})
		if err != nil {
			t.Fatal(err)
		}
		if rest.Existing != stopAfter || rest.Ran != 16-stopAfter {
			t.Errorf("resumed: %+v", rest)
		}
		ref := jacStore(t)
		if _, err := stage.Sweep(context.Background(), ref, plan(t, ref, jacRequest()), stage.SweepOptions{Workers: 1}); err != nil {
			t.Fatal(err)
		}
		hash := p.Def.Hash()
		got, want := sweeptest.Fingerprint(t, db, hash), sweeptest.Fingerprint(t, ref, hash)
		if d := sweeptest.Diff(got, want); d != "" {
			t.Errorf("cancelled after %d and resumed vs uninterrupted: %s", stopAfter, d)
		}
		if len(want) < 16*100 {
			t.Errorf("fingerprint of %d lines: too few to compare anything", len(want))
		}
	}
}

func TestSweepSkipsLargeGrids(t *testing.T) {
	db := jacStore(t)
	req := jacRequest()
	req.Grids = [][]int{{2}, {2048}, {64, 32}}
	p := plan(t, db, req)
	if len(p.Configs) != 4 || p.Skipped != 8 {
		t.Errorf("%d configurations, %d skipped; want 4, 8", len(p.Configs), p.Skipped)
	}
}

func TestEstimateRows(t *testing.T) {
	db := jacStore(t)
	p := plan(t, db, jacRequest())
	est, err := p.Plan.EstimateRows(context.Background(), 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := stage.Sweep(context.Background(), db, p, stage.SweepOptions{}); err != nil {
		t.Fatal(err)
	}
	var rows, perProc int64
	for _, tbl := range []string{"runs", "intervals", "interval_values", "interval_stats", "interval_proc_values"} {
		n := int64(storeCount(t, db, tbl))
		rows += n
		if tbl == "interval_proc_values" {
			perProc = n
		}
	}
	// The sample is the 1-processor configuration: its per-processor shape
	// is extrapolated, so allow a margin.
	if est.Configs != 16 || float64(est.Rows) < 0.7*float64(rows) || float64(est.Rows) > 1.3*float64(rows) {
		t.Errorf("estimate %+v, stored %d rows", est, rows)
	}
	if est.PerProc == 0 || perProc == 0 {
		t.Errorf("per-processor rows: estimated %d, stored %d", est.PerProc, perProc)
	}
}

// storeCount is the number of rows of a table of the store.
func storeCount(t *testing.T, st *store.Store, table string) int {
	t.Helper()
	n, err := st.CountRows(table)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// TestSweepGoesOnWithoutTooBigConfigurations: a configuration over the
// simulator's memory limit is a Failure with its reason; the sweep stores
// the others, and running it again tries the failed one again.
func TestSweepGoesOnWithoutTooBigConfigurations(t *testing.T) {
	db := jacStore(t)
	req := stage.SweepRequest{Trace: "jac", Machines: []string{"Predictor"}, Grids: [][]int{{1}, {3, 3}}, TStart: []float64{0, 20e-6}}
	// The least memory limit grid 1 needs: grid 3x3, whose uneven blocks
	// make more classes of processors, needs more (sim.TestMaxState).
	lo, hi := int64(1), int64(1<<30)
	for lo < hi {
		mid := (lo + hi) / 2
		one := req
		one.Grids, one.Options.MaxState = [][]int{{1}}, mid
		p := plan(t, db, one)
		if _, err := p.Simulate(context.Background(), p.Configs[0]); err == nil {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	req.Options.MaxState = lo
	sum, err := stage.Sweep(context.Background(), db, plan(t, db, req), stage.SweepOptions{Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	if sum.Ran != 2 || len(sum.Failed) != 2 {
		t.Fatalf("ran %d, failed %+v; want grid 1 stored and grid 3x3 failed, twice", sum.Ran, sum.Failed)
	}
	for _, f := range sum.Failed {
		if !strings.Contains(f.Config, "3x3") || !strings.Contains(f.Err.Error(), "grid 3x3 needs more than") {
			t.Errorf("failure %+v: want grid 3x3 over the limit", f)
		}
	}
	req.Options.MaxState = 0
	again, err := stage.Sweep(context.Background(), db, plan(t, db, req), stage.SweepOptions{Workers: 1})
	if err != nil || again.Existing != 2 || again.Ran != 2 || len(again.Failed) != 0 {
		t.Errorf("again with the default limit: %+v, %v; want the 2 stored and 3x3 run", again, err)
	}
}
