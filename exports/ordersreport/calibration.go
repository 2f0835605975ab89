package ordersreport

import (
	"bytes"
	_ "embed"
	"fmt"
	"html/template"
	"io"
	"math"

	"github.com/presage-dvm/presage/exports/htmlstyle"
	"github.com/presage-dvm/presage/orders/calibration"
)

//go:embed calibration.tmpl
var calibrationText string

var calibrationPage = template.Must(template.New("calibration").Parse(calibrationText))

// CalibrationInput is what the calibration report shows: the rows of a
// calibration file and their analysis per block and machine.
type CalibrationInput struct {
	Name  string
	Rows  []calibration.Row
	Stats []calibration.Stat
}

type blockView struct {
	calibration.Stat
	Slope      string // "–" when f varies too little
	Flags      string
	Time, Cost template.HTML
}

// WriteCalibration writes the calibration report: per block, the measured
// time T(α) and the constant c(α) = T(α)/f(α) against f(α) (the seed's
// figures 5 and 6), every run a point, with c̄ and the flags that say the
// estimate f has the wrong shape (DRIFT) or the runs disagree (NOISY).
func WriteCalibration(w io.Writer, in *CalibrationInput) error {
	var blocks []blockView
	for _, st := range in.Stats {
		b := blockView{Stat: st, Slope: "–", Flags: st.Flags.String(),
			Time: runsChart(in.Rows, st, func(r calibration.Row) float64 { return r.Seconds }, "T (s)", math.NaN()),
			Cost: runsChart(in.Rows, st, calibration.Row.C, "c = T / f", st.Mean)}
		if !math.IsNaN(st.Slope) {
			b.Slope = fmt.Sprintf("%.3f", st.Slope)
		}
		blocks = append(blocks, b)
	}
	var b bytes.Buffer
	err := calibrationPage.Execute(&b, struct {
		Name   string
		Rows   int
		Blocks []blockView
		Style  template.CSS
	}{in.Name, len(in.Rows), blocks, htmlstyle.Sheet(style)})
	if err != nil {
		return fmt.Errorf("calibration %s: report: %w", in.Name, err)
	}
	_, err = w.Write(b.Bytes())
	return err
}

// runsChart plots y(row) against f(α), both log-scaled, for the rows of
// st's block and machine; mean, when not NaN, is drawn as a dashed line.
func runsChart(rows []calibration.Row, st calibration.Stat, y func(calibration.Row) float64, yName string, mean float64) template.HTML {
	const height, top, bottom = 220.0, 10.0, 180.0
	var xs, ys []float64
	for _, r := range rows {
		if r.Block == st.Block && r.Machine == st.Machine {
			xs, ys = append(xs, r.F), append(ys, y(r))
		}
	}
	if len(xs) == 0 {
		return ""
	}
	x0, x1 := logRange(xs)
	y0, y1 := logRange(append(ys, mean))
	px := func(v float64) float64 {
		return leftMargin + (chartWidth-leftMargin-rightPad)*(math.Log10(v)-x0)/math.Max(x1-x0, 1e-9)
	}
	py := func(v float64) float64 { return bottom - (bottom-top)*(math.Log10(v)-y0)/math.Max(y1-y0, 1e-9) }
	var c svg
	c.printf(`<line x1="%g" y1="%g" x2="%g" y2="%g" class="axis"/>`, leftMargin, bottom, chartWidth-rightPad, bottom)
	c.printf(`<line x1="%g" y1="%g" x2="%g" y2="%g" class="axis"/>`, leftMargin, top, leftMargin, bottom)
	for e := math.Ceil(x0); e <= x1; e++ {
		c.printf(`<text x="%.1f" y="%g" class="tick" text-anchor="middle">1e%g</text>`, px(math.Pow(10, e)), bottom+16, e)
	}
	for e := math.Ceil(y0); e <= y1; e++ {
		c.printf(`<text x="%g" y="%.1f" class="tick" text-anchor="end">1e%g</text>`, leftMargin-6, py(math.Pow(10, e))+4, e)
	}
	if !math.IsNaN(mean) && mean > 0 {
		c.printf(`<line x1="%g" y1="%.1f" x2="%g" y2="%.1f" class="ideal"><title>c̄ = %.4g</title></line>`,
			leftMargin, py(mean), chartWidth-rightPad, py(mean), mean)
	}
	for i := range xs {
		c.printf(`<circle cx="%.1f" cy="%.1f" r="3" class="point"><title>f = %.4g: %.4g</title></circle>`, px(xs[i]), py(ys[i]), xs[i], ys[i])
	}
	c.printf(`<text x="%g" y="%g" class="tick" text-anchor="middle">f(α), the block's cost estimate</text>`, (leftMargin+chartWidth)/2, bottom+34)
	c.printf(`<text x="12" y="%g" class="tick" transform="rotate(-90 12 %g)" text-anchor="middle">%s</text>`, (top+bottom)/2, (top+bottom)/2, yName)
	return c.html(height, yName+" against f")
}

// logRange is the decades spanning the positive values of vs.
func logRange(vs []float64) (lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, v := range vs {
		if v > 0 && !math.IsNaN(v) {
			lo, hi = math.Min(lo, math.Log10(v)), math.Max(hi, math.Log10(v))
		}
	}
	if math.IsInf(lo, 1) {
		return 0, 1
	}
	return math.Floor(lo), math.Max(math.Ceil(hi), math.Floor(lo)+1)
}
