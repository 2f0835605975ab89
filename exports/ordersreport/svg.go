package ordersreport

import (
	"fmt"
	"html"
	"html/template"
	"math"
	"strings"

	"github.com/presage-dvm/presage/schema/stored"
)

// Chart geometry, in SVG user units (the charts scale to the page width).
const (
	chartWidth = 960.0
	leftMargin = 56.0
	rightPad   = 16.0
	rowHeight  = 14.0
	axisHeight = 28.0
)

// colours of the parts of a node's time (colour-blind-safe: Okabe–Ito).
const (
	colBusy     = "#009e73"
	colTransfer = "#0072b2"
	colWaiting  = "#e69f00"
	colIdle     = "#d9dee5"
	colPath     = "#d55e00"
)

// svg accumulates the elements of one chart.
type svg struct{ strings.Builder }

func (s *svg) printf(format string, args ...any) { fmt.Fprintf(&s.Builder, format, args...) }

// html closes the chart into an <svg> of the given height.
func (s *svg) html(height float64, label string) template.HTML {
	return template.HTML(fmt.Sprintf(`<svg class="chart" viewBox="0 0 %g %g" role="img" aria-label="%s">%s</svg>`,
		chartWidth, height, html.EscapeString(label), s.String()))
}

// timeAxis draws a time axis under y from 0 to max seconds.
func (s *svg) timeAxis(y, maxT float64, x func(float64) float64) {
	s.printf(`<line x1="%g" y1="%g" x2="%g" y2="%g" class="axis"/>`, leftMargin, y, chartWidth-rightPad, y)
	for _, t := range ticks(maxT, 8) {
		s.printf(`<line x1="%.1f" y1="%g" x2="%.1f" y2="%g" class="axis"/><text x="%.1f" y="%g" class="tick" text-anchor="middle">%s</text>`,
			x(t), y, x(t), y+4, x(t), y+16, label(t))
	}
	s.printf(`<text x="%g" y="%g" class="tick" text-anchor="end">s</text>`, chartWidth-rightPad, y+26)
}

// timeline is the Gantt chart: a row per node, a bar per order (when the
// orders' schedules are stored), the critical path drawn over them.
func timeline(s *stored.OrderSimulation) template.HTML {
	d := s.Detail
	rows := min(d.Nodes, maxTimelineNodes)
	span := math.Max(d.Makespan, 1e-300)
	x := func(t float64) float64 { return leftMargin + (chartWidth-leftMargin-rightPad)*t/span }
	var c svg
	for n := range rows {
		y := float64(n) * rowHeight
		c.printf(`<rect x="%g" y="%g" width="%g" height="%g" class="lane"/>`, leftMargin, y+1, chartWidth-leftMargin-rightPad, rowHeight-2)
		if rows <= 32 || n%max(1, rows/16) == 0 {
			c.printf(`<text x="%g" y="%g" class="tick" text-anchor="end">node %d</text>`, leftMargin-4, y+rowHeight-3, n)
		}
	}
	for _, e := range s.Events {
		if e.Node >= rows {
			continue
		}
		c.printf(`<rect x="%.2f" y="%g" width="%.2f" height="%g" fill="%s" class="order"><title>order %d: %s–%s s, waited %s s</title></rect>`,
			x(e.Start), float64(e.Node)*rowHeight+2, math.Max(x(e.End)-x(e.Start), 0.3), rowHeight-4, colBusy,
			e.Order, label(e.Start), label(e.End), label(e.Wait))
	}
	for _, p := range s.Path {
		if p.Node >= rows {
			continue
		}
		c.printf(`<rect x="%.2f" y="%g" width="%.2f" height="%g" class="path"><title>critical path: order %d %s, %s–%s s</title></rect>`,
			x(p.Start), float64(p.Node)*rowHeight+1, math.Max(x(p.End)-x(p.Start), 0.6), rowHeight-2, p.Order, p.Reason, label(p.Start), label(p.End))
	}
	top := float64(rows) * rowHeight
	c.timeAxis(top+2, span, x)
	return c.html(top+axisHeight+4, "timeline of the nodes")
}

// loads is a stacked bar per node: busy, transfer, waiting, idle.
func loads(s *stored.OrderSimulation) template.HTML {
	d := s.Detail
	rows := min(len(s.Nodes), maxTimelineNodes)
	total := math.Max(d.Makespan*float64(max(d.Cores, 1)), 1e-300)
	width := chartWidth - leftMargin - rightPad
	var c svg
	for i, n := range s.Nodes[:rows] {
		y := float64(i) * rowHeight
		x := leftMargin
		for _, part := range []struct {
			v          float64
			col, title string
		}{{n.Busy, colBusy, "busy"}, {n.Transfer, colTransfer, "transfer"}, {n.Waiting, colWaiting, "waiting"}, {n.Idle, colIdle, "idle"}} {
			w := width * part.v / total
			c.printf(`<rect x="%.2f" y="%g" width="%.2f" height="%g" fill="%s"><title>node %d %s: %s s (%.1f%%)</title></rect>`,
				x, y+2, w, rowHeight-4, part.col, n.Node, part.title, label(part.v), 100*part.v/total)
			x += w
		}
		if rows <= 32 || i%max(1, rows/16) == 0 {
			c.printf(`<text x="%g" y="%g" class="tick" text-anchor="end">node %d</text>`, leftMargin-4, y+rowHeight-3, n.Node)
		}
	}
	top := float64(rows) * rowHeight
	c.timeAxis(top+2, total, func(t float64) float64 { return leftMargin + width*t/total })
	return c.html(top+axisHeight+4, "load of every node")
}

// speedupChart plots the sweep's speedup against the node count (log-log)
// beside the work/span range and the ideal line; the current run and the
// smallest cluster meeting the deadline are marked.
func speedupChart(runs []stored.OrderRunRow, current int, deadline float64) template.HTML {
	const height, top, bottom = 300.0, 10.0, 260.0
	maxN, maxS := 1.0, 1.0
	for _, r := range runs {
		maxN = math.Max(maxN, float64(r.Nodes*r.Cores))
		maxS = math.Max(maxS, math.Max(r.SpeedupHi, r.Speedup))
	}
	lx := func(n float64) float64 {
		return leftMargin + (chartWidth-leftMargin-rightPad)*math.Log2(n)/math.Max(math.Log2(maxN), 1)
	}
	ly := func(s float64) float64 {
		return bottom - (bottom-top)*math.Log2(math.Max(s, 1))/math.Max(math.Log2(maxS), 1)
	}
	var c svg
	var band, lo, hi, sp []string
	for _, r := range runs {
		n := float64(r.Nodes * r.Cores)
		hi = append(hi, fmt.Sprintf("%.1f,%.1f", lx(n), ly(r.SpeedupHi)))
		lo = append([]string{fmt.Sprintf("%.1f,%.1f", lx(n), ly(r.SpeedupLo))}, lo...)
		sp = append(sp, fmt.Sprintf("%.1f,%.1f", lx(n), ly(r.Speedup)))
	}
	band = append(append(band, hi...), lo...)
	c.printf(`<polygon points="%s" class="band"><title>work/span range</title></polygon>`, strings.Join(band, " "))
	c.printf(`<line x1="%g" y1="%g" x2="%.1f" y2="%.1f" class="ideal"><title>ideal: speedup = nodes</title></line>`,
		lx(1), ly(1), lx(math.Min(maxN, maxS)), ly(math.Min(maxN, maxS)))
	c.printf(`<polyline points="%s" class="speedup"/>`, strings.Join(sp, " "))
	for _, r := range runs {
		n := float64(r.Nodes * r.Cores)
		cls := "point"
		switch {
		case r.Nodes == current:
			cls = "point current"
		case deadline > 0 && r.Makespan <= deadline:
			cls = "point meets"
		}
		c.printf(`<circle cx="%.1f" cy="%.1f" r="4" class="%s"><title>%d nodes: run time %s s, speedup %.3g (range %.3g–%.3g)</title></circle>`,
			lx(n), ly(r.Speedup), cls, r.Nodes, label(r.Makespan), r.Speedup, r.SpeedupLo, r.SpeedupHi)
	}
	c.printf(`<line x1="%g" y1="%g" x2="%g" y2="%g" class="axis"/>`, leftMargin, bottom, chartWidth-rightPad, bottom)
	c.printf(`<line x1="%g" y1="%g" x2="%g" y2="%g" class="axis"/>`, leftMargin, top, leftMargin, bottom)
	for n := 1.0; n <= maxN; n *= 2 {
		c.printf(`<text x="%.1f" y="%g" class="tick" text-anchor="middle">%g</text>`, lx(n), bottom+16, n)
	}
	for s := 1.0; s <= maxS; s *= 2 {
		c.printf(`<text x="%g" y="%.1f" class="tick" text-anchor="end">%g</text>`, leftMargin-6, ly(s)+4, s)
	}
	c.printf(`<text x="%g" y="%g" class="tick" text-anchor="middle">cores (nodes × cores per node)</text>`, (leftMargin+chartWidth)/2, bottom+34)
	c.printf(`<text x="12" y="%g" class="tick" transform="rotate(-90 12 %g)" text-anchor="middle">speedup</text>`, (top+bottom)/2, (top+bottom)/2)
	return c.html(height, "speedup against cluster size")
}

// ticks are about n round values from 0 to max.
func ticks(maxV float64, n int) []float64 {
	if maxV <= 0 {
		return []float64{0}
	}
	step := math.Pow(10, math.Floor(math.Log10(maxV/float64(n))))
	for _, m := range []float64{1, 2, 5, 10} {
		if maxV/(step*m) <= float64(n) {
			step *= m
			break
		}
	}
	var out []float64
	for t := 0.0; t <= maxV*(1+1e-9); t += step {
		out = append(out, t)
	}
	return out
}

// label formats a time with 3 significant digits.
func label(v float64) string { return fmt.Sprintf("%.3g", v) }
