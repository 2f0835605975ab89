package stage

import (
	"bytes"
	"context"
	"math"
	"path/filepath"
	"testing"

	"github.com/presage-dvm/presage/exports/fitreport"

	"github.com/presage-dvm/presage/ingest"
	"github.com/presage-dvm/presage/internal/golden"
	"github.com/presage-dvm/presage/internal/storetest"
	"github.com/presage-dvm/presage/sim/fit"
)

// TestCalibrateReal fits the 2-core host of the real measurements of
// every program measured and traced (jac_e4, jacas_e4, sor_e4, jac) on two
// of its three runs and predicts the third, which it did not see.
func TestCalibrateReal(t *testing.T) {
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
	// runs. Measured on this repository's data; far from the 15 % target
	// (docs/compare.md says why): the test keeps the figures honest.
	tests := []struct {
		prog, hold          string
		meas, before, after float64
	}{
		{"jac_e4", "2x2", 0.3645, 0.2159, 1.0280},
		{"jac_e4", "1x2", 0.0219, 0.2153, 1.1035},
		{"jac_e4", "1", 0.0061, 0.2151, 6.8087},
		{"jacas_e4", "2x2", 0.2479, 0.0789, 0.0750},
		{"jacas_e4", "1x2", 0.0221, 0.0783, 0.1813},
		{"jacas_e4", "1", 0.0028, 0.0783, 0.1134},
		// jac's trace has no intervals but Main, whose measured times on 1
		// and 2 processes (14 and 70 µs) are not its work: the fit runs
		// into the power bound (machine.PowerRange's 100).
		{"jac", "2x2", 0.3380, 0.1100, 0.0024},
		{"jac", "2", 0.000070, 0.1093, 0.1367},
		{"jac", "1", 0.000014, 0.1093, 0.02794},
		{"sor_e4", "2x2", 0.5799, 0.0879, 0.1167},
		{"sor_e4", "1x2", 0.0072, 0.0870, 0.1717},
		{"sor_e4", "1", 0.0547, 0.0868, 0.0715},
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
				t.Errorf("%s, %s held out: Main measured %.4f, before %.4f, after %.4f; want %.4f, %.4f, %.4f",
					tt.prog, tt.hold, e.Measured, e.Before, e.After, tt.meas, tt.before, tt.after)
			}
		}
		if !found || c.MachineID == 0 {
			t.Errorf("%s: no held-out Main, or no stored machine (%+v)", tt.prog, c.Machine)
		}
	}
}
