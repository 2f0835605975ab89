package sweepreport

import (
	"fmt"
	"math"
	"slices"
)

// procScale returns the log2 processor axis over the sweep's processor
// counts, and its ticks: the counts themselves when there are few, powers
// of two otherwise.
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
	x0, x1, _, _ := plotBox()
	s := scale{Lo: lo, Hi: hi, P0: x0, P1: x1, Base: 2}
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
		return yScale(l, h, 10)
	}
	return yScale(0, niceCeil(hi), 0)
}

// efficScale runs from 0 to 1 (further when a value exceeds it).
func efficScale(lo, hi float64) scale {
	l, h := 0.0, math.Max(1, niceCeil(hi))
	if lo < 0 {
		l = -niceCeil(-lo)
	}
	return yScale(l, h, 0)
}

// speedupScale is logarithmic (base 2) and always shows 1, so that the
// ideal speedup is a straight line and slowdowns are visible.
func speedupScale(lo, hi float64) scale {
	l, h := logDomain(math.Min(lo, 1), math.Max(hi, 1), 2)
	return yScale(l, h, 2)
}

func yScale(lo, hi, base float64) scale {
	_, _, yt, yb := plotBox()
	return scale{Lo: lo, Hi: hi, P0: yb, P1: yt, Base: base}
}

// lineChartOf builds the chart of q: one line per series through its
// fastest configuration per processor count, hollow markers for the others.
func lineChartOf(ss []*series, q quantity) *lineChart {
	x, xticks := procScale(ss)
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, s := range ss {
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
	ch := &lineChart{
		ID: q.id, Title: q.title, XLabel: "processors (log2 scale)", YLabel: q.ylabel,
		X: x, XTicks: xticks, Y: q.yScale(lo, hi),
	}
	if ch.Y.Base > 0 {
		ch.YLabel += fmt.Sprintf(" (log%g scale)", ch.Y.Base)
	}
	for i, s := range ss {
		color, dash, marker := seriesStyle(i)
		l := line{Name: s.Label, Color: color, Dash: dash, Marker: marker}
		for _, p := range s.Points {
			if v := q.value(s, p.Best); ch.Y.Valid(v) {
				l.Pts = append(l.Pts, mark{float64(p.Procs), v, tip(s, p.Best, v, q.unit)})
			}
			for _, c := range p.Others {
				if v := q.value(s, c); ch.Y.Valid(v) {
					l.Alts = append(l.Alts, mark{float64(p.Procs), v, tip(s, c, v, q.unit) + " (not the fastest grid)"})
				}
			}
		}
		ch.Lines = append(ch.Lines, l)
	}
	ch.Desc = fmt.Sprintf("%s for %d series against the number of processors; each line follows the fastest grid at each processor count, other grids are hollow markers.",
		q.title, len(ss))
	if q.id == speedupQ.id {
		ch.Ideal, ch.IdealName = idealSpeedup(ss, ch.Y), "ideal speedup"
		ch.Desc += " Speedup is relative to each series' smallest processor count."
	}
	return ch
}

// idealSpeedup returns the segment of linear speedup within the chart, or
// nil when the series start from different processor counts (there is no
// single ideal line then).
func idealSpeedup(ss []*series, y scale) *[2]mark {
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

func tip(s *series, c *config, v float64, unit string) string {
	u := ""
	if unit != "" {
		u = " " + unit
	}
	return fmt.Sprintf("%s — grid %s (%d processors): %s%s, run %d", s.Label, c.Grid, c.Procs, short(v), u, c.RunID)
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
