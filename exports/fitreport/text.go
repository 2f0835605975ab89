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
	fmt.Fprintf(w, "free parameters: %s; residual RMS %.4g over %d values, %d simulations\n\n",
		strings.Join(free, ", "), c.Fit.RMS, len(c.Fit.Residuals), c.Fit.Evals)
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
	return tw.Flush()
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
	doc := struct {
		Program   string             `json:"program"`
		Host      any                `json:"host"`
		Start     map[string]float64 `json:"start"`
		Fitted    map[string]float64 `json:"fitted"`
		Free      []string           `json:"free"`
		RMS       float64            `json:"residual_rms"`
		Residuals []float64          `json:"residuals"`
		Evals     int                `json:"simulations"`
		Machine   string             `json:"machine"`
		MachineID int64              `json:"machine_id"`
		Path      string             `json:"machine_file"`
		Rows      []row              `json:"intervals"`
	}{
		Program: c.Program, Host: c.Host, Start: paramMap(c.Start), Fitted: paramMap(c.Fit.Params),
		RMS: c.Fit.RMS, Residuals: c.Fit.Residuals, Evals: c.Fit.Evals,
		Machine: c.Machine, MachineID: c.MachineID, Path: c.Path,
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
