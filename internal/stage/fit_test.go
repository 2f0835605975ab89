package stage

import (
	"bytes"
	"context"
	"math"
	"path/filepath"
	"slices"
	"testing"

	"github.com/presage-dvm/presage/exports/fitreport"

	"github.com/presage-dvm/presage/ingest"
	"github.com/presage-dvm/presage/internal/golden"
	"github.com/presage-dvm/presage/internal/storetest"
	"github.com/presage-dvm/presage/sim/fit"
)

// TestFitReal fits the 2-core host of the real measurements of
// every program measured and traced (jac_e4, jacas_e4, sor_e4, jac) on two
// of its three runs and predicts the third, which it did not see.
func TestFitReal(t *testing.T) {
	ctx := context.Background()
	db := storetest.Open(t)
	// Every program of the data with a trace and statistics of the same
	// source, with the grids it was measured on.
	measured := map[string][]string{"jac_e4": {"1", "1x2", "2x2"}, "jacas_e4": {"1", "1x2", "2x2"},
		"sor_e4": {"1", "1x2", "2x2"}, "jac": {"1", "2", "2x2"}}
	for prog, grids := range measured {
		if _, err := ingest.Trace(ctx, db, golden.Path(t, "traces", prog+".ptr"), nil); err != nil {
			t.Fatal(err)
		}
		for _, g := range grids {
			if _, err := ingest.Sts(ctx, db, golden.Path(t, "sts", prog+"."+g+".sts.gz+")); err != nil {
				t.Fatal(err)
			}
		}
	}
	if _, err := ingest.Machine(ctx, db, golden.Path(t, "machines", "Predictor.par")); err != nil {
		t.Fatal(err)
	}
	host := fit.Host{Nodes: 1, CoresPerNode: 2, Network: "shared-memory"}
	// Main's execution time of the held-out run (s): measured, predicted
	// on Predictor.par, predicted on the host fitted to the other two
	// runs. A real run's Main is compared with an -e4 trace's
	// program-level loop (sim/compare), so "before" is that loop: a few
	// milliseconds where the tiny runs measure 3 to 580 ms (the
	// measurements are noise and MPICH spinning, docs/compare.md). The
	// power stays 1 (the runs ran on the traced host); the fit keeps what
	// the runs cannot tell at Predictor.par's values and is never worse
	// than Predictor.par on the runs it fits. Far from the 15 % target
	// (docs/compare.md says why): the test keeps the figures honest.
	tests := []struct {
		prog, hold          string
		meas, before, after float64
	}{
		{"jac_e4", "2x2", 0.3645, 0.003313, 0.1020},
		{"jac_e4", "1x2", 0.02187, 0.002673, 0.08241},
		{"jac_e4", "1", 0.006061, 0.002529, 0.002529},
		{"jacas_e4", "2x2", 0.2479, 0.002849, 0.008700},
		{"jacas_e4", "1x2", 0.02206, 0.002334, 0.002338},
		{"jacas_e4", "1", 0.002785, 0.002249, 0.002249},
		// jac's trace has no intervals but Main, whose measured times on 1
		// and 2 processes (14 and 70 µs) are not its work, while the
		// trace's Main holds the run's start-up (0.109 s): no parameter
		// explains them.
		{"jac", "2x2", 0.3380, 0.1100, 0.2187},
		{"jac", "2", 0.0000701, 0.1093, 0.1427},
		{"jac", "1", 0.00001407, 0.1093, 0.1093},
		{"sor_e4", "2x2", 0.5799, 0.004351, 0.02145},
		{"sor_e4", "1x2", 0.007202, 0.003408, 0.08417},
		{"sor_e4", "1", 0.0547, 0.003243, 0.003243},
	}
	for _, tt := range tests {
		c, err := Fit(ctx, db, FitRequest{Trace: tt.prog, Machine: "Predictor", Host: host,
			Holdout: []string{tt.hold}, Out: filepath.Join(t.TempDir(), tt.prog+"-fit.par")})
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		if err := fitreport.WriteText(&b, c); err != nil {
			t.Fatal(err)
		}
		t.Logf("%s, %s held out\n%s", tt.prog, tt.hold, b.String())
		found := false
		for _, e := range c.Errors {
			if !e.Holdout || e.Depth != 0 {
				continue
			}
			found = true
			near := func(got, want, tol float64) bool { return math.Abs(got-want) <= tol*want }
			if !near(e.Measured, tt.meas, 0.01) || !near(e.Before, tt.before, 5e-3) || !near(e.After, tt.after, 0.05) {
				t.Errorf("%s, %s held out: Main measured %.4g, before %.4g, after %.4g; want %.4g, %.4g, %.4g",
					tt.prog, tt.hold, e.Measured, e.Before, e.After, tt.meas, tt.before, tt.after)
			}
		}
		if c.Fit.Params.Power != 1 || slices.Contains(c.Free, fit.Power) {
			t.Errorf("%s, %s held out: power %g (free %v), want 1 on the traced host", tt.prog, tt.hold, c.Fit.Params.Power, c.Free)
		}
		if c.Fit.RMS > c.Fit.StartRMS {
			t.Errorf("%s, %s held out: the fit made its runs worse: RMS %g from %g", tt.prog, tt.hold, c.Fit.RMS, c.Fit.StartRMS)
		}
		for q := range fit.NumParams {
			if v := c.Fit.Params.Get(q); !slices.Contains(c.Fit.Fitted, q) && v != c.Start.Get(q) {
				t.Errorf("%s, %s held out: %v moved to %g though not fitted (start %g)", tt.prog, tt.hold, q, v, c.Start.Get(q))
			}
		}
		if !found || c.MachineID == 0 {
			t.Errorf("%s: no held-out Main, or no stored machine (%+v)", tt.prog, c.Machine)
		}
	}
}

// TestFitLeaveOneOut: a fit asked for its leave-one-out fits again
// without each fitted grid, predicts its Main, and gives each parameter's
// spread; one process on the traced host is the trace itself, so the fit
// without the one-process grid predicts it as Predictor.par does.
func TestFitLeaveOneOut(t *testing.T) {
	ctx := context.Background()
	db := storetest.Open(t)
	if _, err := ingest.Trace(ctx, db, golden.Path(t, "traces", "sor_e4.ptr"), nil); err != nil {
		t.Fatal(err)
	}
	for _, g := range []string{"1", "1x2", "2x2"} {
		if _, err := ingest.Sts(ctx, db, golden.Path(t, "sts", "sor_e4."+g+".sts.gz+")); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := ingest.Machine(ctx, db, golden.Path(t, "machines", "Predictor.par")); err != nil {
		t.Fatal(err)
	}
	c, err := Fit(ctx, db, FitRequest{Trace: "sor_e4", Machine: "Predictor", Host: fit.Host{Nodes: 1, CoresPerNode: 2, Network: "shared-memory"},
		LeaveOneOut: true, Out: filepath.Join(t.TempDir(), "sor-fit.par")})
	if err != nil {
		t.Fatal(err)
	}
	if len(c.LeaveOneOut) != 3 {
		t.Fatalf("%d leave-one-out fits, want one per grid (3)", len(c.LeaveOneOut))
	}
	for _, l := range c.LeaveOneOut {
		if len(l.Errors) != 1 || l.Errors[0].Depth != 0 || !l.Errors[0].Holdout {
			t.Errorf("without %s: %+v, want the held-out run's Main", l.Grid, l.Errors)
			continue
		}
		if e := l.Errors[0]; e.Procs == 1 && e.After != e.Before {
			t.Errorf("without %s: one process predicted %g, Predictor.par %g: want the trace itself", l.Grid, e.After, e.Before)
		}
	}
	sp := fit.Spread(c.LeaveOneOut)
	if sp[fit.Power] != [2]float64{1, 1} || !(sp[fit.TStartNode][0] <= sp[fit.TStartNode][1]) {
		t.Errorf("spread %v: want power 1–1 and an in-node TStart range", sp)
	}
	var b bytes.Buffer
	if err := fitreport.WriteText(&b, c); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"leave-one-out over the fitted grids", "spread over the 3 fits: tstart-in-node", "power: 1, not fitted"} {
		if !bytes.Contains(b.Bytes(), []byte(want)) {
			t.Errorf("report lacks %q:\n%s", want, b.String())
		}
	}
}
