package sweepreport

import (
	"fmt"
	"math"
	"slices"

	"github.com/presage-dvm/presage/exports/internal/chart"
)

// procAxis returns the log2 processor axis over the series' processor
// counts, with the counts as ticks when there are few.
func procAxis(ss []*series) chart.Axis {
	var procs []int
	for _, s := range ss {
		for _, p := range s.Points {
			procs = append(procs, p.Procs)
		}
	}
	x, ticks := chart.CountScale(procs)
	return chart.Axis{Scale: x, Ticks: ticks, Label: "processors (log2 scale)"}
}

// quantity is what a line chart plots for a configuration of a series.
type quantity struct {
	id, title, ylabel, unit string
	value                   func(s *series, c *config) float64
	// yScale makes the y axis from the range of the finite values; a
	// logarithmic one is only chosen for positive ranges.
	yScale func(lo, hi float64) chart.Scale
}

var (
	timeQ = quantity{"chart-time", "Execution time vs processors", "execution time, s", "s",
		func(_ *series, c *config) float64 { return c.Time }, timeScale}
	efficQ = quantity{"chart-efficiency", "Efficiency vs processors", "efficiency", "",
		func(_ *series, c *config) float64 { return c.Efficiency() }, efficScale}
	speedupQ = quantity{"chart-speedup", "Speedup vs processors", "speedup", "×",
		func(s *series, c *config) float64 { return s.Speedup(c) }, speedupScale}
)

// timeScale is logarithmic when the times span a decade or more, linear
// from zero otherwise.
func timeScale(lo, hi float64) chart.Scale {
	if lo > 0 && hi/lo >= 10 {
		return chart.LogScale(10, lo, hi)
	}
	return chart.Scale{Lo: 0, Hi: chart.NiceCeil(hi)}
}

// efficScale runs from 0 to 1 (further when a value exceeds it).
func efficScale(lo, hi float64) chart.Scale {
	l, h := 0.0, math.Max(1, chart.NiceCeil(hi))
	if lo < 0 {
		l = -chart.NiceCeil(-lo)
	}
	return chart.Scale{Lo: l, Hi: h}
}

// speedupScale is logarithmic (base 2) and always shows 1, so that the
// ideal speedup is a straight line and slowdowns are visible.
func speedupScale(lo, hi float64) chart.Scale { return chart.LogScale(2, lo, hi, 1) }

// quantityCharts builds the charts of q, one per panel, on one y scale so
// that the panels compare at a glance.
func quantityCharts(ps []*panel, l layout, q quantity) []*chart.LineChart {
	var all []*series
	for _, p := range ps {
		all = append(all, p.Series...)
	}
	x := procAxis(all)
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, s := range all {
		for _, p := range s.Points {
			for _, c := range append([]*config{p.Best}, p.Others...) {
				if v := q.value(s, c); !math.IsNaN(v) && !math.IsInf(v, 0) {
					lo, hi = math.Min(lo, v), math.Max(hi, v)
				}
			}
		}
	}
	if lo > hi { // nothing to draw
		lo, hi = 1, 1
	}
	y := chart.Axis{Scale: q.yScale(lo, hi), Label: q.ylabel}
	if y.Base > 0 {
		y.Label += fmt.Sprintf(" (log%g)", y.Base)
	}
	var out []*chart.LineChart
	for i, p := range ps {
		ch := lineChartOf(p, l, q, x, y)
		if len(ps) > 1 {
			ch.ID = fmt.Sprintf("%s-%d", q.id, i+1)
			ch.Title += " — " + p.Label
		}
		out = append(out, ch)
	}
	return out
}

// lineChartOf builds the chart of q for one panel: per series a line
// through the fastest configuration at each processor count and a band
// over all of them.
func lineChartOf(p *panel, l layout, q quantity, x, y chart.Axis) *chart.LineChart {
	ch := &chart.LineChart{
		Frame: chart.Frame{ID: q.id, Class: "line", Title: q.title},
		X:     x, Y: y, BandName: "band: every configuration",
	}
	for _, s := range p.Series {
		color, marker := chart.Style(l.styleIndex(s.Key))
		ln := chart.Line{Name: s.Label, Color: color, Marker: marker}
		for _, pt := range s.Points {
			v := q.value(s, pt.Best)
			if !y.Valid(v) {
				continue
			}
			ln.Pts = append(ln.Pts, chart.Point{X: float64(pt.Procs), Y: v, Rank: pt.Best.Time})
			b := chart.Band{X: float64(pt.Procs), Lo: v, Hi: v}
			for _, c := range pt.Others {
				if o := q.value(s, c); y.Valid(o) {
					b.Lo, b.Hi = math.Min(b.Lo, o), math.Max(b.Hi, o)
				}
			}
			ln.Band = append(ln.Band, b)
		}
		for _, i := range markerPoints(s.Points, maxMarkers) {
			pt := s.Points[i]
			if v := q.value(s, pt.Best); y.Valid(v) {
				ln.Marks = append(ln.Marks, chart.Point{X: float64(pt.Procs), Y: v, Tip: tip(s, pt, v, q)})
			}
		}
		ch.Lines = append(ch.Lines, ln)
	}
	ch.Desc = fmt.Sprintf("%s for %d series against the number of processors; each line follows the fastest configuration at each processor count, its shaded band spans every configuration there.",
		ch.Title, len(p.Series))
	if q.id == speedupQ.id {
		if r := idealSpeedup(p.Series, y.Scale); r != nil {
			ch.Refs = []chart.Ref{*r}
		}
		ch.Desc += " Speedup is relative to the fastest configuration at each series' smallest processor count."
	}
	return ch
}

// maxMarkers bounds the markers of a line: they tell the series apart and
// carry tooltips, the line itself carries the data.
const maxMarkers = 11

// markerPoints picks the points that get a marker: the powers of two when
// there are enough, otherwise evenly spaced points, at most n.
func markerPoints(pts []point, n int) []int {
	var pow2 []int
	for i, p := range pts {
		if p.Procs&(p.Procs-1) == 0 {
			pow2 = append(pow2, i)
		}
	}
	if len(pow2) >= 3 || len(pow2) == len(pts) {
		return chart.Spread(pow2, n)
	}
	all := make([]int, len(pts))
	for i := range all {
		all[i] = i
	}
	return chart.Spread(all, n)
}

// idealSpeedup returns the segment of linear speedup within the chart, or
// nil when the series start from different processor counts (there is no
// single ideal line then).
func idealSpeedup(ss []*series, y chart.Scale) *chart.Ref {
	if len(ss) == 0 {
		return nil
	}
	p0 := ss[0].Points[0].Procs
	pmax := p0
	for _, s := range ss {
		if s.Points[0].Procs != p0 {
			return nil
		}
		pmax = max(pmax, s.Points[len(s.Points)-1].Procs)
	}
	return chart.IdealSpeedup(float64(p0), float64(p0), float64(pmax), y.Hi)
}

// tip describes a marked point: the series, the fastest grid and the
// spread over the configurations at its processor count.
func tip(s *series, p point, v float64, q quantity) string {
	u := ""
	if q.unit != "" {
		u = " " + q.unit
	}
	t := fmt.Sprintf("%s — %d processors: %s%s (grid %s, run %d)", s.Label, p.Procs, short(v), u, p.Best.Grid, p.Best.RunID)
	if len(p.Others) > 0 {
		lo, hi := v, v
		for _, c := range p.Others {
			if o := q.value(s, c); !math.IsNaN(o) {
				lo, hi = math.Min(lo, o), math.Max(hi, o)
			}
		}
		t += fmt.Sprintf("; %d configurations here span %s–%s%s", 1+len(p.Others), short(lo), short(hi), u)
	}
	return t
}

// partColors are the colours of barChars: the three parts of lost time,
// then load imbalance and synchronization.
var partColors = []string{"#7b5ea7", "#c8553d", "#e0a030", "#2f7f9e", "#6b8e23"}

// The geometry of the breakdown: as wide as the line charts, labels on
// the left, a row per interval with the stack of lost time on top and a
// thin bar per potential loss below.
const (
	breakdownLabelW = 190.0
	breakdownPadR   = 24.0
	breakdownRowH   = 34.0
)

var breakdownTracks = []chart.Track{{Y: 3, H: 16}, {Y: 21, H: 5}, {Y: 27, H: 5}}

// barChartOf builds the breakdown chart of one configuration from its
// intervals; the note tells how many of how many intervals are drawn.
func barChartOf(c *config, label string, ivs []*interval, limit int) (*chart.Rows, string) {
	shown := largestLosses(ivs, limit)
	ch := &chart.Rows{
		Frame: chart.Frame{ID: "chart-breakdown", Class: "bars",
			Title: fmt.Sprintf("Lost time per interval — run %d, grid %s (%d processors), %s", c.RunID, c.Grid, c.Procs, label)},
		Width: chart.Narrow, LabelW: breakdownLabelW, PadR: breakdownPadR, RowH: breakdownRowH,
		Tracks: breakdownTracks, Tree: true,
	}
	var stacked, apart []chart.LegendItem
	for i, k := range barChars {
		it := chart.LegendItem{Name: k.String(), Color: partColors[i], Swatch: chart.SwatchBox}
		if i < nStacked {
			stacked = append(stacked, it)
		} else {
			apart = append(apart, it)
		}
	}
	ch.Legend = []chart.LegendGroup{{Title: "Lost time, stacked:", Items: stacked}, {Title: "Not part of lost time:", Items: apart}}
	base := ivs[0].Level
	most := 0.0
	for _, iv := range shown {
		row := chart.Row{
			Label:  fmt.Sprintf("%s line %d", iv.Type, iv.Line),
			Tip:    fmt.Sprintf("%s interval %d, line %d of %s", iv.Type, iv.ID, iv.Line, iv.File),
			Indent: iv.Level - base,
		}
		var stack []chart.Bar
		for i, v := range iv.Values {
			bar := chart.Bar{To: v, Color: partColors[i], Tip: fmt.Sprintf("%s — %s: %s s", row.Tip, barChars[i].String(), short(v))}
			if i < nStacked {
				bar.Class = "part"
				stack = append(stack, bar)
				continue
			}
			bar.Class, bar.Track, bar.To = "potential", 1+i-nStacked, math.Max(v, 0)
			row.Bars = append(row.Bars, bar)
			most = math.Max(most, bar.To)
		}
		stack = chart.Stack(stack)
		most = math.Max(most, stack[len(stack)-1].To)
		row.Bars = append(stack, row.Bars...)
		ch.Rows = append(ch.Rows, row)
	}
	ch.X = chart.Axis{Scale: chart.Scale{Lo: 0, Hi: chart.NiceCeil(most)}, Label: "processor time, s"}
	ch.Desc = fmt.Sprintf("For each of %d intervals, in tree order: Insuff_parallelism, Communication and Idle stacked (their sum is the lost time), then Load_imbalance and Synchronization as thin bars (potential losses, not part of lost time).", len(shown))
	note := ""
	if len(shown) < len(ivs) {
		note = fmt.Sprintf("%d of %d intervals are drawn: those with the largest losses, in tree order.", len(shown), len(ivs))
	}
	return ch, note
}

// largestLosses keeps at most limit intervals, those with the largest
// lost time plus potential losses, in their original (tree) order.
func largestLosses(ivs []*interval, limit int) []*interval {
	if limit <= 0 || len(ivs) <= limit {
		return ivs
	}
	loss := func(iv *interval) float64 {
		t := 0.0
		for _, v := range iv.Values {
			t += math.Max(v, 0)
		}
		return t
	}
	idx := make([]int, len(ivs))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int {
		la, lb := loss(ivs[a]), loss(ivs[b])
		switch {
		case la > lb:
			return -1
		case la < lb:
			return 1
		}
		return 0
	})
	idx = idx[:limit]
	slices.Sort(idx)
	out := make([]*interval, len(idx))
	for i, j := range idx {
		out[i] = ivs[j]
	}
	return out
}
