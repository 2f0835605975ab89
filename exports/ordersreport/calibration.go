package ordersreport

import (
	"bytes"
	_ "embed"
	"fmt"
	"html/template"
	"io"
	"math"
	"strings"

	"github.com/presage-dvm/presage/exports/internal/chart"
	"github.com/presage-dvm/presage/exports/internal/htmlstyle"
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
	SpreadPct  float64 // the largest interquartile spread of an α, in %
	Known      string  // how well the loosest α's median is known: "±1.2%", "unbounded"
	CPUs       string  // the median c on each CPU of the α they differ most on, "" when not pinned
	LoadedPct  float64 // Loaded, in %
	Slowdown   string  // "×1.19 with 2 copies at once, …", "" when not timed
	Time, Cost template.HTML
}

// WriteCalibration writes the calibration report: at the top, one line
// per block the calibration did not pin down (calibration.Advise: its
// median not known within calibration.DefaultPrecision, its runs on a
// loaded machine, its CPUs that differ), saying by how much and what to
// do; then per block, the measured time T(α) and the constant
// c(α) = T(α)/f(α) against f(α) (the seed's figures 5 and 6), every run
// a point, with the median c of each α that record mode prices with, the
// seed's c̄, the flags that say the estimate f has the wrong shape
// (DRIFT) or the runs disagree (NOISY), the spread of the runs, how well
// the median is known, its median on each CPU, and the slowdown with
// copies at once.
func WriteCalibration(w io.Writer, in *CalibrationInput) error {
	var blocks []blockView
	for _, st := range in.Stats {
		b := blockView{Stat: st, Slope: "–", Flags: st.Flags.String(),
			Time: runsChart(in.Rows, st, func(r calibration.Row) float64 { return r.Seconds }, "T (s)", nil, math.NaN()),
			Cost: runsChart(in.Rows, st, calibration.Row.C, "c = T / f", st.Curve(), st.Mean)}
		if !math.IsNaN(st.Slope) {
			b.Slope = fmt.Sprintf("%.3f", st.Slope)
		}
		loosest, widest := 0.0, calibration.Point{}
		for _, p := range st.Points {
			b.SpreadPct = max(b.SpreadPct, 100*p.Spread())
			loosest = max(loosest, p.Bound)
			if p.CPUSpread() >= widest.CPUSpread() {
				widest = p
			}
		}
		b.Known = "unbounded (too few runs)"
		if !math.IsInf(loosest, 1) {
			b.Known = fmt.Sprintf("±%.1f%%", 100*loosest)
		}
		b.CPUs = cpuMedians(widest)
		b.LoadedPct = 100 * st.Loaded
		var sl []string
		for _, q := range st.Slowdown {
			sl = append(sl, fmt.Sprintf("×%.3g with %d copies", q.S, q.Copies))
		}
		b.Slowdown = strings.Join(sl, ", ")
		blocks = append(blocks, b)
	}
	var b bytes.Buffer
	err := calibrationPage().Execute(&b, struct {
		Name   string
		Rows   int
		Blocks []blockView
		Advice []calibration.Advice
	}{in.Name, len(in.Rows), blocks, calibration.Advise(in.Stats, calibration.DefaultPrecision)})
	if err != nil {
		return fmt.Errorf("calibration %s: report: %w", in.Name, err)
	}
	_, err = w.Write(b.Bytes())
	return err
}

// cpuMedians writes the median c of p on each CPU its runs were pinned
// to, "" when they were not: "CPU 0: 1.73e-10, CPU 1: 2.43e-10 (+40% at
// α 64)".
func cpuMedians(p calibration.Point) string {
	if len(p.CPUs) == 0 || len(p.CPUs) == 1 && p.CPUs[0].CPU < 0 {
		return ""
	}
	parts := make([]string, len(p.CPUs))
	for i, c := range p.CPUs {
		parts[i] = fmt.Sprintf("CPU %d: %.4g", c.CPU, c.Median)
	}
	at := ""
	if len(p.Alpha) > 0 {
		alpha := make([]string, len(p.Alpha))
		for i, a := range p.Alpha {
			alpha[i] = fmt.Sprint(a)
		}
		at = " at α " + strings.Join(alpha, ";")
	}
	return fmt.Sprintf("%s (+%.0f%%%s)", strings.Join(parts, ", "), 100*p.CPUSpread(), at)
}

// runsChart plots y(row) against f(α), both log-scaled, for the rows of
// st's block and machine, the runs alone and those with copies apart;
// curve, when given, is drawn as a line (the constants record mode
// prices with), and mean, when positive, as a dashed one.
func runsChart(rows []calibration.Row, st calibration.Stat, y func(calibration.Row) float64, yName string, curve calibration.Curve, mean float64) template.HTML {
	runs := chart.Line{Name: "a timed run, alone", Color: chart.Blue, Marker: chart.Circle, Scatter: true}
	copies := chart.Line{Name: "a run with copies at once", Color: chart.Orange, Marker: chart.Square, Scatter: true}
	var xs, ys []float64
	for _, r := range rows {
		if r.Block == st.Block && r.Machine == st.Machine {
			xs, ys = append(xs, r.F), append(ys, y(r))
			if r.Copies <= 1 {
				runs.Marks = append(runs.Marks, chart.Point{X: r.F, Y: y(r), Tip: fmt.Sprintf("f = %.4g: %.4g", r.F, y(r))})
			} else {
				copies.Marks = append(copies.Marks, chart.Point{X: r.F, Y: y(r), Tip: fmt.Sprintf("f = %.4g, %d copies: %.4g", r.F, r.Copies, y(r))})
			}
		}
	}
	if len(xs) == 0 {
		return ""
	}
	var lines []chart.Line
	if len(copies.Marks) > 0 {
		lines = append(lines, copies) // under the runs alone, which it may cover
	}
	lines = append(lines, runs)
	if len(curve) > 0 {
		med := chart.Line{Name: "the median of each α, as priced", Color: chart.Green}
		for _, p := range curve {
			med.Pts = append(med.Pts, chart.Point{X: p.F, Y: p.C})
			ys = append(ys, p.C)
		}
		lines = append(lines, med)
	}
	c := chart.LineChart{
		Frame: chart.Frame{Title: yName + " against f"},
		Width: chart.Wide, PlotH: 170,
		X:     chart.Axis{Scale: chart.LogScale(10, xs...), Label: "f(α), the block's cost estimate (log scale)"},
		Y:     chart.Axis{Scale: chart.LogScale(10, append(ys, mean)...), Label: yName + " (log scale)"},
		Lines: lines,
	}
	if mean > 0 {
		c.Refs = []chart.Ref{{X0: c.X.Lo, Y0: mean, X1: c.X.Hi, Y1: mean, Name: "c̄", Tip: fmt.Sprintf("c̄ = %.4g", mean)}}
	}
	return template.HTML(c.SVG())
}
