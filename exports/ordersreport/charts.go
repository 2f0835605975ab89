package ordersreport

import (
	"fmt"
	"html/template"
	"math"

	"github.com/presage-dvm/presage/exports/chart"
	"github.com/presage-dvm/presage/schema/stored"
)

// The colours of the parts of a node's time and of the critical path.
const (
	colBusy     = chart.Green
	colTransfer = chart.Blue
	colWaiting  = chart.Orange
	colIdle     = chart.Idle
	colPath     = chart.Vermillion
)

// nodeRowH is the height of a node's row in the timeline and the loads.
const nodeRowH = 14.0

// timeline is the Gantt chart: a row per node, a bar per order (when the
// orders' schedules are stored), the critical path framed over them.
func timeline(s *stored.OrderSimulation) template.HTML {
	d := s.Detail
	rows := make([]chart.Row, min(d.Nodes, maxTimelineNodes))
	for n := range rows {
		rows[n].Label = fmt.Sprintf("node %d", n)
	}
	for _, e := range s.Events {
		if e.Node < len(rows) {
			rows[e.Node].Bars = append(rows[e.Node].Bars, chart.Bar{From: e.Start, To: e.End, Color: colBusy, Class: "order",
				Tip: fmt.Sprintf("order %d: %s–%s s, waited %s s", e.Order, label(e.Start), label(e.End), label(e.Wait))})
		}
	}
	for _, p := range s.Path {
		if p.Node < len(rows) {
			rows[p.Node].Bars = append(rows[p.Node].Bars, chart.Bar{From: p.Start, To: p.End, Track: 1, Color: colPath, Class: "path", Outline: true,
				Tip: fmt.Sprintf("critical path: order %d %s, %s–%s s", p.Order, p.Reason, label(p.Start), label(p.End))})
		}
	}
	var legend []chart.LegendItem
	if len(s.Events) > 0 {
		legend = append(legend, chart.LegendItem{Name: "an order running", Color: colBusy, Swatch: chart.SwatchBox})
	}
	legend = append(legend, chart.LegendItem{Name: "the critical path", Color: colPath, Swatch: chart.SwatchOutline})
	c := chart.Rows{
		Frame: chart.Frame{Title: "timeline of the nodes"},
		RowH:  nodeRowH, Tracks: []chart.Track{{Y: 2, H: 10}, {Y: 1, H: 12}}, Lanes: true, Edges: true, MinW: 0.5,
		X:    chart.Axis{Scale: chart.Scale{Hi: math.Max(d.Makespan, 1e-300)}, Label: "time, s"},
		Rows: rows, Legend: []chart.LegendGroup{{Items: legend}},
	}
	return template.HTML(c.SVG())
}

// loads is a stacked bar per node: busy, transfer, waiting, idle.
func loads(s *stored.OrderSimulation) template.HTML {
	d := s.Detail
	total := math.Max(d.Makespan*float64(max(d.Cores, 1)), 1e-300)
	parts := []struct{ name, legend, color string }{
		{"busy", "busy", colBusy}, {"transfer", "transfer (arguments arriving)", colTransfer},
		{"waiting", "waiting for results", colWaiting}, {"idle", "idle (nothing to run)", colIdle},
	}
	var rows []chart.Row
	for _, n := range s.Nodes[:min(len(s.Nodes), maxTimelineNodes)] {
		var bars []chart.Bar
		for i, v := range []float64{n.Busy, n.Transfer, n.Waiting, n.Idle} {
			bars = append(bars, chart.Bar{To: v, Color: parts[i].color,
				Tip: fmt.Sprintf("node %d %s: %s s (%.1f%%)", n.Node, parts[i].name, label(v), 100*v/total)})
		}
		rows = append(rows, chart.Row{Label: fmt.Sprintf("node %d", n.Node), Bars: chart.Stack(bars)})
	}
	var legend []chart.LegendItem
	for _, p := range parts {
		legend = append(legend, chart.LegendItem{Name: p.legend, Color: p.color, Swatch: chart.SwatchBox})
	}
	c := chart.Rows{
		Frame: chart.Frame{Title: "load of every node"},
		RowH:  nodeRowH, Tracks: []chart.Track{{Y: 2, H: 10}},
		X:    chart.Axis{Scale: chart.Scale{Hi: total}, Label: "core time (run time × cores per node), s"},
		Rows: rows, Legend: []chart.LegendGroup{{Items: legend}},
	}
	return template.HTML(c.SVG())
}

// speedupChart plots the sweep's speedup against the cluster's cores
// (log-log) within the range the work and span allow, beside the ideal
// line; the current run and the clusters meeting the deadline are marked.
func speedupChart(runs []stored.OrderRunRow, current int, deadline float64) template.HTML {
	var cores []int
	speedups := []float64{1}
	line := chart.Line{Name: "simulated speedup", Color: chart.Blue, Marker: chart.Circle, BandTip: "work/span range"}
	for _, r := range runs {
		n := float64(r.Nodes * r.Cores)
		cores = append(cores, r.Nodes*r.Cores)
		speedups = append(speedups, r.Speedup, r.SpeedupHi)
		line.Pts = append(line.Pts, chart.Point{X: n, Y: r.Speedup})
		line.Band = append(line.Band, chart.Band{X: n, Lo: r.SpeedupLo, Hi: r.SpeedupHi})
		m := chart.Point{X: n, Y: r.Speedup,
			Tip: fmt.Sprintf("%d nodes: run time %s s, speedup %.3g (range %.3g–%.3g)", r.Nodes, label(r.Makespan), r.Speedup, r.SpeedupLo, r.SpeedupHi)}
		switch {
		case r.Nodes == current:
			m.Class, m.Color = "current", colPath
		case deadline > 0 && r.Makespan <= deadline:
			m.Class, m.Color = "meets", colBusy
		}
		line.Marks = append(line.Marks, m)
	}
	x, ticks := chart.CountScale(cores)
	y := chart.LogScale(2, speedups...)
	for i := range line.Band { // a bound a little below 1 on one node is not worth an octave
		line.Band[i].Lo = y.Clamp(line.Band[i].Lo)
	}
	c := chart.LineChart{
		Frame: chart.Frame{Title: "speedup against cluster size"},
		Width: chart.Wide,
		X:     chart.Axis{Scale: x, Ticks: ticks, Label: "cores (nodes × cores per node, log2 scale)"},
		Y:     chart.Axis{Scale: y, Label: "speedup (log2)"},
		Lines: []chart.Line{line}, BandName: "range the work and span allow",
	}
	if r := chart.IdealSpeedup(1, x.Lo, x.Hi, y.Hi); r != nil { // speedup = cores
		c.Refs = []chart.Ref{*r}
	}
	if deadline > 0 {
		c.Extra = append(c.Extra, chart.LegendItem{Name: fmt.Sprintf("meets the deadline (%s s)", label(deadline)), Color: colBusy, Swatch: chart.SwatchMark})
	}
	c.Extra = append(c.Extra, chart.LegendItem{Name: "this run", Color: colPath, Swatch: chart.SwatchMark})
	return template.HTML(c.SVG())
}

// label formats a time with 3 significant digits.
func label(v float64) string { return fmt.Sprintf("%.3g", v) }
