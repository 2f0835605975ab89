package sweepreport

import (
	"cmp"
	"math"
	"slices"
	"strings"
)

var nan = math.NaN()

// seriesKey is the combination of parameters a sweep varies besides the
// grid: the lines, facets and bands of the charts are projections of it.
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

// buildSeries groups configurations into series by their whole key, ordered
// by key and labelled by what varies between them.
func buildSeries(cs []*config) []*series {
	out := groupSeries(cs, keyOf)
	labelSeries(out)
	return out
}

// groupSeries groups configurations into series by key (a projection of
// their parameters), ordered by key and not labelled. Equal times at one
// processor count go to the lower run id, so the choice is reproducible.
func groupSeries(cs []*config, key func(*config) seriesKey) []*series {
	byKey := map[seriesKey]*series{}
	type at struct {
		k     seriesKey
		procs int
	}
	index := map[at]int{} // of a point in its series' Points
	var out []*series
	for _, c := range cs {
		k := key(c)
		s := byKey[k]
		if s == nil {
			s = &series{Key: k}
			byKey[k] = s
			out = append(out, s)
		}
		i, ok := index[at{k, c.Procs}]
		if !ok {
			index[at{k, c.Procs}] = len(s.Points)
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
	keys := make([]seriesKey, len(ss))
	for i, s := range ss {
		keys[i] = s.Key
	}
	for i, l := range labelKeys(keys) {
		ss[i].Label = l
	}
}

// labelKeys names each key by the parameters that vary between the keys,
// or by all of them when none varies.
func labelKeys(keys []seriesKey) []string {
	use := make([]bool, len(params))
	varying := false
	for i, p := range params {
		for _, k := range keys[1:] {
			if p.varies(keys[0], k) {
				use[i], varying = true, true
				break
			}
		}
	}
	out := make([]string, len(keys))
	for j, k := range keys {
		var ls []string
		for i, p := range params {
			if use[i] || !varying {
				ls = append(ls, p.format(k))
			}
		}
		out[j] = strings.Join(ls, " · ")
	}
	return out
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
