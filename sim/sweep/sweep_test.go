package sweep_test

import (
	"context"
	"errors"
	"testing"

	"github.com/jmoiron/sqlx"

	"github.com/presage-dvm/presage/ingest/golden"
	"github.com/presage-dvm/presage/sim/result"
	"github.com/presage-dvm/presage/sim/runner"
	"github.com/presage-dvm/presage/sim/sweep"
	"github.com/presage-dvm/presage/sim/sweep/sweeptest"
)

func jacStore(t *testing.T) *sqlx.DB {
	t.Helper()
	db, _ := sweeptest.Store(t, "s.db",
		[]string{golden.Path(t, "traces", "jac.ptr")},
		[]string{golden.Path(t, "machines", "Predictor.par")})
	return db
}

// jacRequest: 4 grids x 2 start-up times x 2 powers = 16 configurations.
func jacRequest() sweep.Request {
	return sweep.Request{Trace: "jac", Machines: []string{"Predictor"},
		Grids:  [][]int{{1}, {2}, {2, 2}, {4, 2}},
		TStart: []float64{0, 20e-6}, Power: []float64{0, 2}, PerProcMax: 4}
}

func plan(t *testing.T, db *sqlx.DB, req sweep.Request) *sweep.Plan {
	t.Helper()
	p, err := sweep.NewPlan(context.Background(), db, req)
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
	sum, err := sweep.Run(context.Background(), db, p, sweep.Options{Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	if sum.Ran != 16 || sum.Existing != 0 || sum.Calls != 16*int64(p.Trace.Calls) {
		t.Errorf("summary %+v", sum)
	}
	out, err := sweep.Outcomes(db, sum.SweepID)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range p.Configs {
		o, ok := out[c.Index]
		if !ok {
			t.Fatalf("configuration %d not stored", c.Index)
		}
		want, err := runner.Predict(context.Background(), db, runner.Request{Trace: "jac", Machine: "Predictor",
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
		got, err := result.Load(db, o.RunID)
		if err != nil {
			t.Fatal(err)
		}
		// Per-processor rows only up to PerProcMax = 4 processors, the
		// comparative characteristics always.
		hasProcs := len(got.Intervals[0].Procs) > 0
		if hasProcs != (c.Procs() <= 4) {
			t.Errorf("%s: per-processor rows stored: %v", p.Describe(c), hasProcs)
		}
		var stats int
		if err := db.Get(&stats, `SELECT count(*) FROM interval_stats WHERE run_id = ?`, o.RunID); err != nil || stats == 0 {
			t.Errorf("%s: %d interval_stats rows (%v)", p.Describe(c), stats, err)
		}
	}
	again, err := sweep.Run(context.Background(), db, plan(t, db, jacRequest()), sweep.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if again.SweepID != sum.SweepID || again.Ran != 0 || again.Existing != 16 {
		t.Errorf("re-run: %+v, want sweep %d with all 16 stored", again, sum.SweepID)
	}
	var sweeps int
	db.Get(&sweeps, `SELECT count(*) FROM sweeps`)
	if sweeps != 1 {
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
		sum, err := sweep.Run(ctx, db, p, sweep.Options{Workers: 2, Progress: func(pr sweep.Progress) {
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
		var n int
		db.Get(&n, `SELECT count(*) FROM runs`)
		if n != stopAfter {
			t.Errorf("cancelled after %d: %d runs in the store", stopAfter, n)
		}
		rest, err := sweep.Run(context.Background(), db, plan(t, db, jacRequest()), sweep.Options{Workers: 2})
		if err != nil {
			t.Fatal(err)
		}
		if rest.Existing != stopAfter || rest.Ran != 16-stopAfter {
			t.Errorf("resumed: %+v", rest)
		}
		ref := jacStore(t)
		if _, err := sweep.Run(context.Background(), ref, plan(t, ref, jacRequest()), sweep.Options{Workers: 1}); err != nil {
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
	est, err := p.EstimateRows(context.Background(), 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := sweep.Run(context.Background(), db, p, sweep.Options{}); err != nil {
		t.Fatal(err)
	}
	var rows, perProc int64
	for _, tbl := range []string{"runs", "intervals", "interval_values", "interval_stats", "interval_proc_values"} {
		var n int64
		db.Get(&n, `SELECT count(*) FROM `+tbl)
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
