package sweepreport

import (
	"fmt"
	"math"
	"slices"
)

// procScale returns the log2 processor axis over the sweep's processor
// counts (its pixels are set by the chart), and its ticks: the counts
// themselves when there are few, powers of two otherwise.
func procScale(ss []*series) (scale, []float64) {
	var procs []int
	for _, s := range ss {
		for _, p := range s.Points {
			procs = append(procs, p.Procs)
		}
	}
	slices.Sort(procs)
	procs = slices.Compact(procs)
	lo, hi := float64(procs[0]), float64(procs[len(procs)-1])
	if lo == hi {
		lo, hi = lo/2, hi*2
	}
	s := scale{Lo: lo, Hi: hi, Base: 2}
	if len(procs) > 12 {
		return s, nil
	}
	ticks := make([]float64, len(procs))
	for i, p := range procs {
		ticks[i] = float64(p)
	}
	return s, ticks
}

// quantity is what a line chart plots for a configuration of a series.
type quantity struct {
	id, title, ylabel, unit string
	value                   func(s *series, c *config) float64
	// yScale makes the y axis from the range of the finite values; a
	// logarithmic one is only chosen for positive ranges.
	yScale func(lo, hi float64) scale
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
func timeScale(lo, hi float64) scale {
	if lo > 0 && hi/lo >= 10 {
		l, h := logDomain(lo, hi, 10)
		return scale{Lo: l, Hi: h, Base: 10}
	}
	return scale{Lo: 0, Hi: niceCeil(hi)}
}

// efficScale runs from 0 to 1 (further when a value exceeds it).
func efficScale(lo, hi float64) scale {
	l, h := 0.0, math.Max(1, niceCeil(hi))
	if lo < 0 {
		l = -niceCeil(-lo)
	}
	return scale{Lo: l, Hi: h}
}

// speedupScale is logarithmic (base 2) and always shows 1, so that the
// ideal speedup is a straight line and slowdowns are visible.
func speedupScale(lo, hi float64) scale {
	l, h := logDomain(math.Min(lo, 1), math.Max(hi, 1), 2)
	return scale{Lo: l, Hi: h, Base: 2}
}

// quantityCharts builds the charts of q, one per panel, on one y scale so
// that the panels compare at a glance.
func quantityCharts(ps []*panel, l layout, q quantity) []*lineChart {
	var all []*series
	for _, p := range ps {
		all = append(all, p.Series...)
	}
	x, xticks := procScale(all)
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
	y := q.yScale(lo, hi)
	var out []*lineChart
	for i, p := range ps {
		ch := lineChartOf(p, l, q, x, xticks, y)
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
func lineChartOf(p *panel, l layout, q quantity, x scale, xticks []float64, y scale) *lineChart {
	ch := &lineChart{
		ID: q.id, Title: q.title, XLabel: "processors (log2 scale)", YLabel: q.ylabel,
		X: x, XTicks: xticks, Y: y,
	}
	if ch.Y.Base > 0 {
		ch.YLabel += fmt.Sprintf(" (log%g)", ch.Y.Base)
	}
	banded := false
	for _, s := range p.Series {
		color, marker := seriesStyle(l.styleIndex(s.Key))
		ln := line{Name: s.Label, Color: color, Marker: marker}
		for _, pt := range s.Points {
			v := q.value(s, pt.Best)
			if !ch.Y.Valid(v) {
				continue
			}
			ln.Pts = append(ln.Pts, mark{X: float64(pt.Procs), Y: v, Time: pt.Best.Time})
			b := band{X: float64(pt.Procs), Lo: v, Hi: v}
			for _, c := range pt.Others {
				if o := q.value(s, c); ch.Y.Valid(o) {
					b.Lo, b.Hi = math.Min(b.Lo, o), math.Max(b.Hi, o)
				}
			}
			banded = banded || b.Lo < b.Hi
			ln.Band = append(ln.Band, b)
		}
		for _, i := range markerPoints(s.Points, maxMarkers) {
			pt := s.Points[i]
			if v := q.value(s, pt.Best); ch.Y.Valid(v) {
				ln.Marks = append(ln.Marks, mark{X: float64(pt.Procs), Y: v, Tip: tip(s, pt, v, q)})
			}
		}
		ch.Lines = append(ch.Lines, ln)
	}
	ch.Banded = banded
	ch.Desc = fmt.Sprintf("%s for %d series against the number of processors; each line follows the fastest configuration at each processor count, its shaded band spans every configuration there.",
		ch.Title, len(p.Series))
	if q.id == speedupQ.id {
		ch.Ideal, ch.IdealName = idealSpeedup(p.Series, ch.Y), "ideal speedup"
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
		return thinIndexes(pow2, n)
	}
	all := make([]int, len(pts))
	for i := range all {
		all[i] = i
	}
	return thinIndexes(all, n)
}

// thinIndexes keeps at most n of idx, evenly spaced, first and last kept.
func thinIndexes(idx []int, n int) []int {
	if len(idx) <= n || n < 2 {
		return idx
	}
	out := make([]int, n)
	for i := range out {
		out[i] = idx[(i*(len(idx)-1)+(n-1)/2)/(n-1)]
	}
	return out
}

// idealSpeedup returns the segment of linear speedup within the chart, or
// nil when the series start from different processor counts (there is no
// single ideal line then).
func idealSpeedup(ss []*series, y scale) *[2]mark {
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
	end := math.Min(float64(pmax), y.Hi*float64(p0))
	if end <= float64(p0) {
		return nil
	}
	return &[2]mark{{X: float64(p0), Y: 1}, {X: end, Y: end / float64(p0)}}
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

// barChartOf builds the breakdown chart of one configuration from its
// intervals; shown tells how many of how many intervals are drawn.
func barChartOf(c *config, label string, ivs []*interval, limit int) (*barChart, string) {
	shown := largestLosses(ivs, limit)
	ch := &barChart{
		ID:    "chart-breakdown",
		Title: fmt.Sprintf("Lost time per interval — run %d, grid %s (%d processors), %s", c.RunID, c.Grid, c.Procs, label),
	}
	for _, k := range barChars {
		ch.Names = append(ch.Names, k.String())
	}
	base := ivs[0].Level
	for _, iv := range shown {
		ch.Rows = append(ch.Rows, barRow{
			Label:  fmt.Sprintf("%s line %d", iv.Type, iv.Line),
			Tip:    fmt.Sprintf("%s interval %d, line %d of %s", iv.Type, iv.ID, iv.Line, iv.File),
			Indent: iv.Level - base,
			Values: iv.Values,
		})
	}
	ch.X = barScale(ch.Rows)
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
