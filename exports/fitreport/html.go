package fitreport

import (
	_ "embed"
	"fmt"
	"html/template"
	"io"
	"math"
	"strings"

	"github.com/presage-dvm/presage/exports/htmlstyle"
	"github.com/presage-dvm/presage/sim/fit"
)

//go:embed report.tmpl
var pageText string

var page = template.Must(template.New("fit").Parse(pageText))

// WriteHTML writes the fit as one self-contained HTML page: the
// host, the parameters before and after the fit with its residual, the
// fitted machine, a chart of Main's predicted/measured ratio for every
// run before and after the fit (the held-out runs marked), and the
// table of every matched interval.
func WriteHTML(w io.Writer, c *fit.Report) error {
	return page.Execute(w, newView(c))
}

// view is what the template shows.
type view struct {
	Style   template.CSS
	R       *fit.Report
	Params  []paramRow
	Free    string
	Chart   template.HTML
	Rows    []errorRow
	Holdout int
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

func newView(c *fit.Report) view {
	v := view{Style: htmlstyle.Sheet(pageStyle), R: c}
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
	return v
}

// Chart geometry and the two colours (Okabe–Ito blue and vermillion).
const (
	chartW, barH, rowGap, labelW, chartPad = 720, 12, 10, 150, 30
	colourBefore, colourAfter              = "#0072B2", "#D55E00"
)

// ratioChart draws, for Main of every run, log2(predicted/measured)
// before and after the fit as horizontal bars around the exact
// prediction (0): the errors span factors of a hundred, which a linear
// percentage axis would flatten.
func ratioChart(errs []fit.IntervalError) template.HTML {
	var mains []fit.IntervalError
	limit := 1.0 // the axis reaches at least a factor of 2 either way
	for _, e := range errs {
		if e.Depth != 0 {
			continue
		}
		mains = append(mains, e)
		for _, p := range []float64{e.Before, e.After} {
			if r := log2Ratio(p, e.Measured); !math.IsNaN(r) {
				limit = max(limit, math.Ceil(math.Abs(r)))
			}
		}
	}
	plotW := float64(chartW - labelW - chartPad)
	x := func(r float64) float64 { return labelW + plotW/2 + r/limit*plotW/2 }
	rowH := 2*barH + rowGap
	h := len(mains)*rowH + 2*chartPad
	var b strings.Builder
	fmt.Fprintf(&b, `<svg class="chart" viewBox="0 0 %d %d" width="%d" height="%d" role="img" aria-label="Main's predicted over measured time, before and after the fit">`,
		chartW, h, chartW, h)
	step := math.Max(1, math.Ceil(limit/4))
	for t := 0.0; t <= limit+1e-9; t += step {
		for _, s := range []float64{-t, t} {
			fmt.Fprintf(&b, `<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" class="grid%s"/>`, x(s), chartPad-6, x(s), h-chartPad+4, map[bool]string{true: " zero"}[s == 0])
			fmt.Fprintf(&b, `<text x="%.1f" y="%d" class="tick">%s</text>`, x(s), h-chartPad+18, factorLabel(s))
		}
	}
	for i, e := range mains {
		y := chartPad + i*rowH
		label := fmt.Sprintf("run %d · %s", e.RunID, e.Grid)
		if e.Holdout {
			label += " · held out"
		}
		fmt.Fprintf(&b, `<text x="%d" y="%d" class="label%s">%s</text>`, labelW-8, y+barH+4, map[bool]string{true: " holdout"}[e.Holdout], template.HTMLEscapeString(label))
		for k, bar := range []struct {
			pred   float64
			colour string
			what   string
		}{{e.Before, colourBefore, "before"}, {e.After, colourAfter, "after"}} {
			r := log2Ratio(bar.pred, e.Measured)
			if math.IsNaN(r) {
				continue
			}
			x0, x1 := x(0), x(math.Max(-limit, math.Min(limit, r)))
			fmt.Fprintf(&b, `<rect x="%.1f" y="%d" width="%.1f" height="%d" fill="%s"><title>%s: predicted %.4g s, measured %.4g s (%s)</title></rect>`,
				math.Min(x0, x1), y+k*barH, math.Max(1, math.Abs(x1-x0)), barH-2, bar.colour, bar.what, bar.pred, e.Measured, pctOf(bar.pred/e.Measured-1))
		}
	}
	b.WriteString(`</svg>`)
	return template.HTML(b.String())
}

// log2Ratio is log2(predicted/measured), NaN when either is not positive.
func log2Ratio(pred, meas float64) float64 {
	if !(pred > 0) || !(meas > 0) {
		return math.NaN()
	}
	return math.Log2(pred / meas)
}

// factorLabel names the factor 2^t: "×1", "×4", "×1/8".
func factorLabel(t float64) string {
	f := math.Exp2(math.Abs(t))
	if t < 0 {
		return fmt.Sprintf("×1/%.0f", f)
	}
	return fmt.Sprintf("×%.0f", f)
}

const pageStyle = `
.chart .grid { stroke: #d0d5dd; stroke-width: 1; }
.chart .grid.zero { stroke: #344054; stroke-width: 1.5; }
.chart .tick { font-size: 11px; fill: #475467; text-anchor: middle; }
.chart .label { font-size: 12px; fill: #1d2939; text-anchor: end; }
.chart .label.holdout { font-weight: 600; }
.swatch { display: inline-block; width: 12px; height: 12px; margin: 0 4px 0 12px; vertical-align: -1px; }
td.free { font-weight: 600; }
`
