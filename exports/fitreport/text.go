package fitreport

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strings"
	"text/tabwriter"

	"github.com/presage-dvm/presage/sim/fit"
)

// WriteText writes the fit and, per run and matched interval,
// the execution time measured and predicted before and after the fit
// with their relative errors.
func WriteText(w io.Writer, c *fit.Outcome) error {
	fmt.Fprintf(w, "Fit of %s on %d node(s) of %d core(s) (%s)\n", c.Program, c.Host.Nodes, c.Host.CoresPerNode, c.Host.Network)
	fmt.Fprintf(w, "start:  %s\nfitted: %s\n", c.Start, c.Fit.Params)
	free := make([]string, len(c.Free))
	for i, q := range c.Free {
		free[i] = q.String()
	}
	fmt.Fprintf(w, "free parameters: %s; residual RMS %.4g over %d values (starting machine's %.4g), %d simulations\n",
		strings.Join(free, ", "), c.Fit.RMS, len(c.Fit.Residuals), c.Fit.StartRMS, c.Fit.Evals)
	for _, l := range notes(c) {
		fmt.Fprintln(w, l)
	}
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "run\tgrid\trole\tinterval\tmeasured\tbefore\terror\tafter\terror\t")
	for _, e := range c.Errors {
		role := "fitted"
		if e.Holdout {
			role = "held out"
		}
		if e.Oversubscribed {
			role += ", oversubscribed"
		}
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s%s\t%.6f\t%.6f\t%s\t%.6f\t%s\t\n", e.RunID, e.Grid, role,
			strings.Repeat("  ", e.Depth), e.Interval, e.Measured, e.Before, pctOf(e.RelBefore()), e.After, pctOf(e.RelAfter()))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	return writeLeaveOneOut(w, c)
}

// notes say what the fit left alone and why: the power on the traced
// host, the parameters no fitted run depends on, a fit that kept the
// starting machine.
func notes(c *fit.Outcome) []string {
	var out []string
	if !c.PowerFree {
		out = append(out, "power: 1, not fitted (the runs ran on the traced host, where one process is the trace itself)")
	}
	if len(c.Fit.Unused) > 0 {
		out = append(out, "no fitted run depends on "+names(c.Fit.Unused)+": kept at the starting machine's value")
	}
	if c.Fit.Kept {
		out = append(out, fmt.Sprintf("kept the starting machine: the fit did not make the fitted runs' error smaller (RMS %.4g, starting machine's %.4g)",
			c.Fit.RMS, c.Fit.StartRMS))
	}
	return out
}

func names(ps []fit.Param) string {
	out := make([]string, len(ps))
	for i, q := range ps {
		out[i] = q.String()
	}
	return strings.Join(out, ", ")
}

// writeLeaveOneOut writes, for each fit without one grid, the left-out
// runs' Main error before and after, then each fitted parameter's spread
// over those fits.
func writeLeaveOneOut(w io.Writer, c *fit.Outcome) error {
	if len(c.LeaveOneOut) == 0 {
		return nil
	}
	fmt.Fprintf(w, "\nleave-one-out over the fitted grids (Main of the grid left out):\n")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "left out\trun\tmeasured\tbefore\terror\tafter\terror\tfitted without it\t")
	for _, l := range c.LeaveOneOut {
		how := looFit(l)
		for _, e := range l.Errors {
			fmt.Fprintf(tw, "%s\t%d\t%.6f\t%.6f\t%s\t%.6f\t%s\t%s\t\n", l.Grid, e.RunID, e.Measured, e.Before, pctOf(e.RelBefore()),
				e.After, pctOf(e.RelAfter()), how)
		}
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	_, err := fmt.Fprintf(w, "spread over the %d fits: %s\n", len(c.LeaveOneOut), spreads(c))
	return err
}

// looFit says what one fit of the leave-one-out gave: the fitted
// parameters' values, or that it kept the starting machine.
func looFit(l fit.LeaveOneOut) string {
	if l.Fit.Kept {
		return "kept the starting machine"
	}
	var parts []string
	for _, q := range l.Fit.Fitted {
		parts = append(parts, q.String()+" "+valueOf(q, l.Fit.Params.Get(q)))
	}
	return strings.Join(parts, ", ")
}

// spreads are the free parameters' least and largest values over the
// leave-one-out's fits.
func spreads(c *fit.Outcome) string {
	if len(c.LeaveOneOut) == 0 {
		return ""
	}
	sp := fit.Spread(c.LeaveOneOut)
	var parts []string
	for _, q := range c.Free {
		parts = append(parts, fmt.Sprintf("%s %s", q, spreadOf(q, sp[q])))
	}
	return strings.Join(parts, ", ")
}

// spreadOf writes a parameter's least and largest value in the machine
// files' units (µs for times, ns for the strided iteration time, percent
// for the contention).
func spreadOf(q fit.Param, r [2]float64) string {
	v, unit := inUnit(q, r[0])
	w, _ := inUnit(q, r[1])
	return fmt.Sprintf("%.4g–%.4g%s", v, w, unit)
}

// valueOf writes a parameter's value in the machine files' units.
func valueOf(q fit.Param, v float64) string {
	x, unit := inUnit(q, v)
	return fmt.Sprintf("%.4g%s", x, unit)
}

// inUnit is v, a value of parameter q, in the machine files' unit, and
// that unit's suffix: the power is a ratio, the contention a percentage,
// the strided iteration time in ns, the others times in µs.
func inUnit(q fit.Param, v float64) (float64, string) {
	switch q {
	case fit.Power:
		return v, ""
	case fit.Contention:
		return v * 100, "%"
	case fit.Strided:
		return v * 1e9, " ns"
	}
	return v * 1e6, " µs"
}

func pctOf(v float64) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return "-"
	}
	return fmt.Sprintf("%+.1f%%", 100*v)
}

// WriteJSON writes the same as one JSON document; relative
// errors are fractions, null where nothing was measured.
func WriteJSON(w io.Writer, c *fit.Outcome) error {
	type row struct {
		RunID          int64    `json:"run_id"`
		Grid           string   `json:"grid"`
		Procs          int      `json:"procs"`
		Holdout        bool     `json:"holdout"`
		Oversubscribed bool     `json:"oversubscribed"`
		Interval       string   `json:"interval"`
		Depth          int      `json:"depth"`
		Measured       float64  `json:"measured"`
		Before         float64  `json:"before"`
		After          *float64 `json:"after"`
		RelBefore      *float64 `json:"rel_error_before"`
		RelAfter       *float64 `json:"rel_error_after"`
	}
	type looRun struct {
		RunID    int64    `json:"run_id"`
		Measured float64  `json:"measured"`
		Before   float64  `json:"before"`
		After    *float64 `json:"after"`
		RelAfter *float64 `json:"rel_error_after"`
	}
	type loo struct {
		Grid   string             `json:"left_out"`
		Fitted map[string]float64 `json:"fitted"`
		Kept   bool               `json:"kept_start"`
		Runs   []looRun           `json:"main"`
	}
	doc := struct {
		Program   string                `json:"program"`
		Host      any                   `json:"host"`
		Start     map[string]float64    `json:"start"`
		Fitted    map[string]float64    `json:"fitted"`
		Free      []string              `json:"free"`
		RMS       float64               `json:"residual_rms"`
		Residuals []float64             `json:"residuals"`
		Evals     int                   `json:"simulations"`
		Machine   string                `json:"machine"`
		MachineID int64                 `json:"machine_id"`
		Path      string                `json:"machine_file"`
		Rows      []row                 `json:"intervals"`
		StartRMS  float64               `json:"start_residual_rms"`
		Kept      bool                  `json:"kept_start"`
		Unused    []string              `json:"unused"`
		PowerFree bool                  `json:"power_free"`
		LOO       []loo                 `json:"leave_one_out,omitempty"`
		Spread    map[string][2]float64 `json:"spread,omitempty"`
	}{
		Program: c.Program, Host: c.Host, Start: paramMap(c.Start), Fitted: paramMap(c.Fit.Params),
		RMS: c.Fit.RMS, Residuals: c.Fit.Residuals, Evals: c.Fit.Evals,
		Machine: c.Machine, MachineID: c.MachineID, Path: c.Path,
		StartRMS: c.Fit.StartRMS, Kept: c.Fit.Kept, PowerFree: c.PowerFree,
	}
	for _, q := range c.Fit.Unused {
		doc.Unused = append(doc.Unused, q.String())
	}
	for _, l := range c.LeaveOneOut {
		x := loo{Grid: l.Grid, Fitted: paramMap(l.Fit.Params), Kept: l.Fit.Kept}
		for _, e := range l.Errors {
			x.Runs = append(x.Runs, looRun{e.RunID, e.Measured, e.Before, finiteOrNil(e.After), finiteOrNil(e.RelAfter())})
		}
		doc.LOO = append(doc.LOO, x)
	}
	if len(c.LeaveOneOut) > 0 {
		sp := fit.Spread(c.LeaveOneOut)
		doc.Spread = map[string][2]float64{}
		for _, q := range c.Free {
			doc.Spread[q.String()] = sp[q]
		}
	}
	for _, q := range c.Free {
		doc.Free = append(doc.Free, q.String())
	}
	for _, e := range c.Errors {
		doc.Rows = append(doc.Rows, row{e.RunID, e.Grid, e.Procs, e.Holdout, e.Oversubscribed, e.Interval, e.Depth,
			e.Measured, e.Before, finiteOrNil(e.After), finiteOrNil(e.RelBefore()), finiteOrNil(e.RelAfter())})
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(doc)
}

func finiteOrNil(v float64) *float64 {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return nil
	}
	return &v
}

func paramMap(p fit.Params) map[string]float64 {
	m := map[string]float64{}
	for q := range fit.NumParams {
		m[q.String()] = p.Get(q)
	}
	return m
}
