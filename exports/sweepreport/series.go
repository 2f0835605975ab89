package sweepreport

import (
	"cmp"
	"math"
	"slices"
	"strings"
)

var nan = math.NaN()

// seriesKey is what distinguishes the lines of a chart.
type seriesKey struct {
	Network string
	TStart  float64
	TByte   float64
	Power   float64
	Machine string
}

func compareKeys(a, b seriesKey) int {
	return cmp.Or(
		strings.Compare(a.Network, b.Network),
		cmp.Compare(a.TStart, b.TStart),
		cmp.Compare(a.TByte, b.TByte),
		cmp.Compare(a.Power, b.Power),
		strings.Compare(a.Machine, b.Machine),
	)
}

func keyOf(c *config) seriesKey {
	return seriesKey{c.Network, c.TStart, c.TByte, c.Power, c.Machine}
}

// series is one line: the sweep's configurations of one key, one point per
// processor count.
type series struct {
	Key    seriesKey
	Label  string
	Points []point // by increasing processor count
}

// point holds the configurations of one processor count: the fastest, on
// the line, and the others with the same count (other grids).
type point struct {
	Procs  int
	Best   *config
	Others []*config
}

// Speedup returns the speedup of c relative to the series' first point.
func (s *series) Speedup(c *config) float64 {
	base := s.Points[0].Best.Time
	if !(c.Time > 0) || !(base > 0) {
		return nan
	}
	return base / c.Time
}

// buildSeries groups configurations into series ordered by key. Equal
// times at one processor count go to the lower run id, so the choice is
// reproducible.
func buildSeries(cs []*config) []*series {
	byKey := map[seriesKey]*series{}
	var out []*series
	for _, c := range cs {
		k := keyOf(c)
		s := byKey[k]
		if s == nil {
			s = &series{Key: k}
			byKey[k] = s
			out = append(out, s)
		}
		i := slices.IndexFunc(s.Points, func(p point) bool { return p.Procs == c.Procs })
		if i < 0 {
			s.Points = append(s.Points, point{Procs: c.Procs, Best: c})
			continue
		}
		p := &s.Points[i]
		if faster(c, p.Best) {
			p.Others = append(p.Others, p.Best)
			p.Best = c
		} else {
			p.Others = append(p.Others, c)
		}
	}
	for _, s := range out {
		slices.SortFunc(s.Points, func(a, b point) int { return cmp.Compare(a.Procs, b.Procs) })
		for _, p := range s.Points {
			slices.SortFunc(p.Others, func(a, b *config) int { return cmp.Compare(a.RunID, b.RunID) })
		}
	}
	slices.SortFunc(out, func(a, b *series) int { return compareKeys(a.Key, b.Key) })
	labelSeries(out)
	return out
}

// faster orders configurations by time, then run id; a time that is not a
// number is slower than any.
func faster(a, b *config) bool {
	switch {
	case math.IsNaN(b.Time) && !math.IsNaN(a.Time):
		return true
	case math.IsNaN(a.Time) || a.Time > b.Time:
		return false
	case a.Time < b.Time:
		return true
	}
	return a.RunID < b.RunID
}

// labelSeries names each series by the parameters that vary between the
// series (all of them when none varies, i.e. there is one series).
func labelSeries(ss []*series) {
	parts := []struct {
		varies func(a, b seriesKey) bool
		format func(k seriesKey) string
	}{
		{func(a, b seriesKey) bool { return a.Network != b.Network }, func(k seriesKey) string { return orDefault(k.Network, "default network") }},
		{func(a, b seriesKey) bool { return a.TStart != b.TStart }, func(k seriesKey) string { return "tstart " + micro(k.TStart) }},
		{func(a, b seriesKey) bool { return a.TByte != b.TByte }, func(k seriesKey) string { return "tbyte " + micro(k.TByte) }},
		{func(a, b seriesKey) bool { return a.Power != b.Power }, func(k seriesKey) string { return "power " + power(k.Power) }},
		{func(a, b seriesKey) bool { return a.Machine != b.Machine }, func(k seriesKey) string { return orDefault(k.Machine, "no machine") }},
	}
	use := make([]bool, len(parts))
	varying := false
	for i, p := range parts {
		for _, s := range ss[1:] {
			if p.varies(ss[0].Key, s.Key) {
				use[i], varying = true, true
				break
			}
		}
	}
	for _, s := range ss {
		var ls []string
		for i, p := range parts {
			if use[i] || !varying {
				ls = append(ls, p.format(s.Key))
			}
		}
		s.Label = strings.Join(ls, " · ")
	}
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
