package fitreport

import (
	_ "embed"
	"fmt"
	"html/template"
	"io"
	"math"
	"strings"

	"github.com/presage-dvm/presage/exports/internal/chart"
	"github.com/presage-dvm/presage/exports/internal/htmlstyle"
	"github.com/presage-dvm/presage/sim/fit"
)

//go:embed report.tmpl
var pageText string

var page = htmlstyle.Page("fit", pageText, pageStyle)

// WriteHTML writes the fit as one self-contained HTML page: the
// host, the parameters before and after the fit with its residual, the
// fitted machine, a chart of Main's predicted/measured ratio for every
// run before and after the fit (the held-out runs marked), and the
// table of every matched interval.
func WriteHTML(w io.Writer, c *fit.Outcome) error {
	return page().Execute(w, newView(c))
}

// view is what the template shows.
type view struct {
	R       *fit.Outcome
	Params  []paramRow
	Free    string
	Chart   template.HTML
	Rows    []errorRow
	Holdout int
	Notes   []string
	LOO     []looRow
	Spread  string
}

type looRow struct {
	fit.IntervalError
	Grid, Fit, ErrBefore, ErrAfter string
}

type paramRow struct {
	Name          string
	Start, Fitted string
	Free          bool
}

type errorRow struct {
	fit.IntervalError
	Role, ErrBefore, ErrAfter string
	Indent                    float64 // em of the interval's depth
}

func newView(c *fit.Outcome) view {
	v := view{R: c}
	free := map[fit.Param]bool{}
	var names []string
	for _, q := range c.Free {
		free[q] = true
		names = append(names, q.String())
	}
	v.Free = strings.Join(names, ", ")
	for q := range fit.NumParams {
		v.Params = append(v.Params, paramRow{Name: q.String(), Start: fmt.Sprintf("%.4g", c.Start.Get(q)),
			Fitted: fmt.Sprintf("%.4g", c.Fit.Params.Get(q)), Free: free[q]})
	}
	for _, e := range c.Errors {
		role := "fitted"
		if e.Holdout {
			role = "held out"
			if e.Depth == 0 {
				v.Holdout++
			}
		}
		if e.Oversubscribed {
			role += ", oversubscribed"
		}
		v.Rows = append(v.Rows, errorRow{IntervalError: e, Role: role, Indent: 0.5 + 1.2*float64(e.Depth),
			ErrBefore: pctOf(e.RelBefore()), ErrAfter: pctOf(e.RelAfter())})
	}
	v.Chart = ratioChart(c.Errors)
	v.Notes = notes(c)
	for _, l := range c.LeaveOneOut {
		how := looFit(l)
		for _, e := range l.Errors {
			v.LOO = append(v.LOO, looRow{IntervalError: e, Grid: l.Grid, Fit: how, ErrBefore: pctOf(e.RelBefore()), ErrAfter: pctOf(e.RelAfter())})
		}
	}
	v.Spread = spreads(c)
	return v
}

// ratioChart draws, for Main of every run, predicted/measured before
// and after the fit as horizontal bars from the exact prediction (×1) on
// a log2 axis: the errors span factors of a hundred, which a linear
// percentage axis would flatten.
func ratioChart(errs []fit.IntervalError) template.HTML {
	c := chart.Rows{
		Frame: chart.Frame{Title: "Main's predicted over measured time, before and after the fit"},
		RowH:  30, Tracks: []chart.Track{{Y: 4, H: 10}, {Y: 16, H: 10}}, MinW: 1, Rules: []float64{1},
		Legend: []chart.LegendGroup{{Items: []chart.LegendItem{
			{Name: "before the fit", Color: chart.Blue, Swatch: chart.SwatchBox},
			{Name: "after the fit", Color: chart.Vermillion, Swatch: chart.SwatchBox},
		}}},
	}
	limit := 1.0 // the axis reaches at least a factor of 2 either way
	for _, e := range errs {
		if e.Depth != 0 {
			continue
		}
		row := chart.Row{Label: fmt.Sprintf("run %d · %s", e.RunID, e.Grid), Strong: e.Holdout}
		if e.Holdout {
			row.Label += " · held out"
		}
		for k, bar := range []struct {
			pred         float64
			colour, what string
		}{{e.Before, chart.Blue, "before"}, {e.After, chart.Vermillion, "after"}} {
			r := log2Ratio(bar.pred, e.Measured)
			if math.IsNaN(r) {
				continue
			}
			limit = max(limit, math.Ceil(math.Abs(r)))
			row.Bars = append(row.Bars, chart.Bar{From: 1, To: bar.pred / e.Measured, Track: k, Color: bar.colour, Class: bar.what,
				Tip: fmt.Sprintf("%s: predicted %.4g s, measured %.4g s (%s)", bar.what, bar.pred, e.Measured, pctOf(bar.pred/e.Measured-1))})
		}
		c.Rows = append(c.Rows, row)
	}
	c.X = chart.Axis{Scale: chart.Scale{Lo: math.Exp2(-limit), Hi: math.Exp2(limit), Base: 2},
		Label: "predicted / measured (log2 scale)", Format: func(v float64) string { return "×" + chart.PowerLabel(v) }}
	return template.HTML(c.SVG())
}

// log2Ratio is log2(predicted/measured), NaN when either is not positive.
func log2Ratio(pred, meas float64) float64 {
	if !(pred > 0) || !(meas > 0) {
		return math.NaN()
	}
	return math.Log2(pred / meas)
}

// pageStyle is the page's own rule: the free parameters in bold.
const pageStyle = `
td.free { font-weight: 600; }
`
