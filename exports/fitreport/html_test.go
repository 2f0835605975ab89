package fitreport

import (
	"bytes"
	"strings"
	"testing"

	"github.com/presage-dvm/presage/sim/fit"
)

// TestHTML: the page names the program and the fitted machine, bolds the
// free parameters and draws two bars (before, after) for Main of every
// run, the held-out run marked; the interval table has every row.
func TestHTML(t *testing.T) {
	start := fit.Params{}
	r := &fit.Outcome{
		Program: "jac_e4", Host: fit.Host{Nodes: 1, CoresPerNode: 2, Network: "shared-memory"},
		Start: start, Fit: fit.Result{Params: start, RMS: 0.5, Residuals: []float64{0.5, -0.5}, Evals: 12},
		Free:    []fit.Param{fit.Param(0)},
		Machine: "fit", MachineID: 2, Path: "fit.par",
		Errors: []fit.IntervalError{
			{RunID: 1, Grid: "1", Procs: 1, Interval: "Main jac.fdv:8", Measured: 0.01, Before: 0.2, After: 0.02},
			{RunID: 1, Grid: "1", Procs: 1, Interval: "Par jac.fdv:10", Depth: 1, Measured: 0.001, Before: 0.002, After: 0.0015},
			{RunID: 3, Grid: "2x2", Procs: 4, Holdout: true, Interval: "Main jac.fdv:8", Measured: 0.36, Before: 0.21, After: 1.03},
		},
	}
	r.LeaveOneOut = []fit.LeaveOneOut{
		{Grid: "1", Fit: fit.Result{Params: start, Kept: true}, Errors: []fit.IntervalError{r.Errors[0]}},
		{Grid: "2x2", Fit: fit.Result{Params: start.Set(fit.Param(0), 2), Fitted: []fit.Param{fit.Param(0)}}, Errors: []fit.IntervalError{r.Errors[2]}},
	}
	var b bytes.Buffer
	if err := WriteHTML(&b, r); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	for _, want := range []string{"<h1>jac_e4</h1>", "<b>fit</b> (machine 2)", "1 run(s) held out", "run 3 · 2x2 · held out",
		`<td class="free">` + fit.Param(0).String() + "</td>", "+1900.0%", "×1/",
		"Leave-one-out over the fitted grids", "kept the starting machine", fit.Param(0).String() + " 0–2"} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	if n := strings.Count(page, `<rect class="before"`) + strings.Count(page, `<rect class="after"`); n != 4 {
		t.Errorf("%d bars, want 2 for each of the 2 runs' Main", n)
	}
	if n := strings.Count(page, "<tr><td class=\"num\">"); n != 3 {
		t.Errorf("%d interval rows, want 3", n)
	}
}
