package ordersreport

import (
	"bytes"
	_ "embed"
	"fmt"
	"html/template"
	"io"
	"math"

	"github.com/presage-dvm/presage/exports/chart"
	"github.com/presage-dvm/presage/exports/htmlstyle"
	"github.com/presage-dvm/presage/orders/calibration"
)

//go:embed calibration.tmpl
var calibrationText string

var calibrationPage = htmlstyle.Page("calibration", calibrationText, style)

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
	}{in.Name, len(in.Rows), blocks})
	if err != nil {
		return fmt.Errorf("calibration %s: report: %w", in.Name, err)
	}
	_, err = w.Write(b.Bytes())
	return err
}

// runsChart plots y(row) against f(α), both log-scaled, for the rows of
// st's block and machine; mean, when positive, is drawn as a dashed line.
func runsChart(rows []calibration.Row, st calibration.Stat, y func(calibration.Row) float64, yName string, mean float64) template.HTML {
	runs := chart.Line{Name: "a timed run", Color: chart.Blue, Marker: chart.Circle, Scatter: true}
	var xs, ys []float64
	for _, r := range rows {
		if r.Block == st.Block && r.Machine == st.Machine {
			xs, ys = append(xs, r.F), append(ys, y(r))
			runs.Marks = append(runs.Marks, chart.Point{X: r.F, Y: y(r), Tip: fmt.Sprintf("f = %.4g: %.4g", r.F, y(r))})
		}
	}
	if len(xs) == 0 {
		return ""
	}
	c := chart.LineChart{
		Frame: chart.Frame{Title: yName + " against f"},
		Width: chart.Wide, PlotH: 170,
		X:     chart.Axis{Scale: chart.LogScale(10, xs...), Label: "f(α), the block's cost estimate (log scale)"},
		Y:     chart.Axis{Scale: chart.LogScale(10, append(ys, mean)...), Label: yName + " (log scale)"},
		Lines: []chart.Line{runs},
	}
	if mean > 0 {
		c.Refs = []chart.Ref{{X0: c.X.Lo, Y0: mean, X1: c.X.Hi, Y1: mean, Name: "c̄", Tip: fmt.Sprintf("c̄ = %.4g", mean)}}
	}
	return template.HTML(c.SVG())
}
