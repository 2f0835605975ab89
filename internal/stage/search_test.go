package stage_test

import (
	"context"
	"testing"

	"github.com/presage-dvm/presage/ingest/ptr"
	"github.com/presage-dvm/presage/internal/golden"
	"github.com/presage-dvm/presage/internal/stage"
	"github.com/presage-dvm/presage/internal/sweeptest"
	"github.com/presage-dvm/presage/schema/store"
	"github.com/presage-dvm/presage/sim/result"
	"github.com/presage-dvm/presage/sim/search"
	"github.com/presage-dvm/presage/sim/trace"
)

func searchStore(t *testing.T) *store.Store {
	db, _ := sweeptest.Store(t, "s.db",
		[]string{golden.Path(t, "traces", "jac.ptr"), golden.Path(t, "traces", "jac1d.ptr")},
		[]string{golden.Path(t, "machines", "Predictor.par")})
	return db
}

// TestMinSizesRealTraces streams real traces through a Sizer.
func TestMinSizesRealTraces(t *testing.T) {
	for name, want := range map[string][search.MaxRank]int{"jac": {8, 8}, "jac1d": {8, 8}} {
		r, err := ptr.OpenFile(golden.Path(t, "traces", name+".ptr"))
		if err != nil {
			t.Fatal(err)
		}
		calls, err := trace.ReadAll(r)
		r.Close()
		if err != nil {
			t.Fatal(err)
		}
		sz := search.NewSizer(name)
		for _, c := range calls {
			if err = sz.Add(c); err != nil {
				break
			}
		}
		if ms := sz.Sizes(); err != nil || ms != want {
			t.Errorf("%s: minimum sizes %v, %v; want %v", name, ms, err, want)
		}
	}
}

// TestOriginalFullSearchOnJac: mode 2 evaluates the 25 marked grids of jac
// (8x8 template: 1, 2, 3, 4 or 8 per dimension; 5, 6 and 7 leave a
// processor without elements), and its best is the fastest stored
// configuration.
func TestOriginalFullSearchOnJac(t *testing.T) {
	db := searchStore(t)
	req := stage.SearchRequest{Trace: "jac", Machine: "Predictor", Mode: 2, Workers: 2}
	rep, err := stage.Search(context.Background(), db, req)
	if err != nil {
		t.Fatal(err)
	}
	o := rep.Original
	if o.NotBad != 25 || o.Checked != 25 || len(rep.Ranked) != 26 {
		t.Fatalf("checked %d, not-bad %d, %d stored; want 25, 25, 26", o.Checked, o.NotBad, len(rep.Ranked))
	}
	if fastest := rep.Ranked[0]; fastest.Time != o.BestE {
		t.Errorf("best E %g, fastest stored %s %g", o.BestE, fastest.Grid, fastest.Time)
	}
	for i := 1; i < len(rep.Ranked); i++ {
		if rep.Ranked[i].Time < rep.Ranked[i-1].Time {
			t.Fatalf("ranking by time out of order at %d", i)
		}
	}
	again, err := stage.Search(context.Background(), db, req)
	if err != nil {
		t.Fatal(err)
	}
	runs := storeCount(t, db, "runs")
	if again.SweepID != rep.SweepID || runs != 26 {
		t.Errorf("repeated search: sweep %d (was %d), %d runs stored", again.SweepID, rep.SweepID, runs)
	}
	// The heuristic is another sweep and checks fewer grids.
	h, err := stage.Search(context.Background(), db, stage.SearchRequest{Trace: "jac", Machine: "Predictor", Mode: 1})
	if err != nil {
		t.Fatal(err)
	}
	if h.Original.Checked >= 25 || h.SweepID == rep.SweepID {
		t.Errorf("mode 1: %d checked in sweep %d", h.Original.Checked, h.SweepID)
	}
}

func TestObjectivesAndDeadline(t *testing.T) {
	db := searchStore(t)
	base := stage.SearchRequest{Trace: "jac1d", Machine: "Predictor", Lo: 1, Hi: 16, MaxRank: 1, Workers: 2}
	plain, err := stage.Search(context.Background(), db, base)
	if err != nil {
		t.Fatal(err)
	}
	// jac1d's arrays have 8 elements: on 9 to 16 processors some hold
	// none, and those configurations are left out unless asked for.
	if len(plain.Ranked) != 8 || plain.DoubtfulLeftOut != 8 {
		t.Fatalf("%d configurations ranked, %d doubtful left out; want 8 and 8", len(plain.Ranked), plain.DoubtfulLeftOut)
	}
	base.IncludeDoubtful = true
	byTime, err := stage.Search(context.Background(), db, base)
	if err != nil {
		t.Fatal(err)
	}
	if len(byTime.Ranked) != 16 || byTime.DoubtfulLeftOut != 0 { // MaxRank 1: one grid per count
		t.Fatalf("%d configurations ranked, want 16", len(byTime.Ranked))
	}
	for _, tc := range []struct {
		obj  search.Objective
		less func(a, b float64) bool
		val  func(i int, r *stage.SearchReport) float64
	}{
		{search.Time, func(a, b float64) bool { return a <= b }, func(i int, r *stage.SearchReport) float64 { return r.Ranked[i].Time }},
		{search.Cost, func(a, b float64) bool { return a <= b }, func(i int, r *stage.SearchReport) float64 { return r.Ranked[i].Cost() }},
		{search.Efficiency, func(a, b float64) bool { return a >= b }, func(i int, r *stage.SearchReport) float64 { return r.Ranked[i].Efficiency }},
	} {
		req := base
		req.Objective = tc.obj
		rep, err := stage.Search(context.Background(), db, req)
		if err != nil {
			t.Fatal(err)
		}
		if rep.SweepID != byTime.SweepID {
			t.Errorf("%s: sweep %d, want the stored %d", tc.obj, rep.SweepID, byTime.SweepID)
		}
		for i := 1; i < len(rep.Ranked); i++ {
			if !tc.less(tc.val(i-1, rep), tc.val(i, rep)) {
				t.Errorf("%s: ranks %d and %d out of order", tc.obj, i, i+1)
			}
		}
	}
	// A deadline between the fastest and the slowest times.
	times := byTime.Ranked
	deadline := (times[0].Time + times[len(times)-1].Time) / 2
	req := base
	req.Constraints.Deadline = deadline
	rep, err := stage.Search(context.Background(), db, req)
	if err != nil {
		t.Fatal(err)
	}
	s := rep.FewestProcs
	if s == nil || s.Time > deadline {
		t.Fatalf("deadline %g: %+v", deadline, s)
	}
	if rep.Stored != 16 || rep.Simulated != 0 {
		t.Errorf("deadline %g: %d stored before, %d simulated; want 16 and 0", deadline, rep.Stored, rep.Simulated)
	}
	for _, o := range byTime.Ranked {
		if o.Time <= deadline && o.Procs < s.Procs {
			t.Errorf("deadline %g: %s meets it with fewer processors than %s", deadline, o.Grid, s.Grid)
		}
	}
	for _, o := range rep.Ranked {
		if o.Time > deadline {
			t.Errorf("deadline %g: %s (%g s) ranked", deadline, o.Grid, o.Time)
		}
	}
	g, _ := result.ParseGrid(s.Grid)
	if len(g) != 1 {
		t.Errorf("grid %s for a one-dimensional trace", s.Grid)
	}
}
