package sweepreport

import (
	"fmt"
	"slices"
	"strings"

	"github.com/presage-dvm/presage/exports/internal/chart"
)

// The bounds that keep charts readable at any sweep size.
const (
	maxSeries = 8 // lines per chart: the palette's colours and markers
	maxFacets = 6 // charts per quantity
)

// layout decides which varied parameter tells the lines of a chart apart,
// which make one chart each (facets), and which are pooled into the band
// of every line. The grid is always pooled: a line follows the fastest
// grid at each processor count and its band spans all of them.
type layout struct {
	seriesBy int   // index into params; -1 when no parameter varies
	facetBy  []int // indexes into params
	pooled   []int
	shown    []seriesKey // the series parameter's values that are drawn
	values   int         // how many values it has
	// together, when set, are varied parameters that change together: they
	// name the series instead of seriesBy alone.
	together []int
}

// chooseLayout gives the lines to the varied parameter with the most
// values that still fit maxSeries (on a tie the later one: a numeric
// parameter reads better as a line than the network does), facets to the
// others while their combinations fit maxFacets, and pools the rest.
func chooseLayout(cs []*config) layout {
	l := layout{seriesBy: -1}
	counts := make([]int, len(params))
	var varied []int
	for i := range params {
		if counts[i] = len(distinctKeys(cs, []int{i})); counts[i] > 1 {
			varied = append(varied, i)
		}
	}
	if len(varied) == 0 {
		l.shown = distinctKeys(cs, l.seriesKeep())
		return l
	}
	for _, i := range varied {
		fits, bestFits := counts[i] <= maxSeries, l.seriesBy >= 0 && counts[l.seriesBy] <= maxSeries
		switch {
		case l.seriesBy < 0,
			fits && !bestFits,
			fits && counts[i] >= counts[l.seriesBy],
			!fits && !bestFits && counts[i] < counts[l.seriesBy]:
			l.seriesBy = i
		}
	}
	if len(distinctKeys(cs, varied)) == counts[l.seriesBy] {
		// The other parameters follow the series' one (each network with
		// its own start-up time): one chart, lines named by all of them.
		l.together = varied
		l.values, l.shown = counts[l.seriesBy], chart.Spread(distinctKeys(cs, varied), maxSeries)
		return l
	}
	facets := 1
	for _, i := range varied {
		switch {
		case i == l.seriesBy:
		case facets*counts[i] <= maxFacets:
			l.facetBy, facets = append(l.facetBy, i), facets*counts[i]
		default:
			l.pooled = append(l.pooled, i)
		}
	}
	all := distinctKeys(cs, []int{l.seriesBy})
	l.values, l.shown = len(all), chart.Spread(all, maxSeries)
	return l
}

// seriesKeep is the projection that gives a configuration's series: the
// series parameter, or every parameter when none varies.
func (l layout) seriesKeep() []int {
	if l.together != nil {
		return l.together
	}
	if l.seriesBy < 0 {
		all := make([]int, len(params))
		for i := range all {
			all[i] = i
		}
		return all
	}
	return []int{l.seriesBy}
}

// styleIndex is the position of a series' value among the shown ones, so
// that a value has the same colour and marker in every facet.
func (l layout) styleIndex(k seriesKey) int { return slices.Index(l.shown, k) }

// notes says in words what the charts show beyond their lines.
func (l layout) notes() []string {
	var out []string
	if l.seriesBy >= 0 && len(l.shown) < l.values {
		out = append(out, fmt.Sprintf("%d of the %d values of the %s are drawn, evenly spaced.",
			len(l.shown), l.values, params[l.seriesBy].name))
	}
	if len(l.pooled) > 0 {
		var names []string
		for _, i := range l.pooled {
			names = append(names, params[i].name)
		}
		out = append(out, fmt.Sprintf("Every %s is pooled into the lines: each follows the fastest configuration and its band spans them all.",
			strings.Join(names, " and every ")))
	}
	return out
}

// panel is the configurations of one facet, as series of the series
// parameter.
type panel struct {
	Label  string // the facet's parameters, "" when there is one facet
	Series []*series
}

// panels splits the configurations into facets and each facet into
// series, keeping only the shown values of the series parameter.
func panels(cs []*config, l layout) []*panel {
	facets := distinctKeys(cs, l.facetBy)
	labels := labelKeys(facets)
	if len(facets) == 1 {
		labels[0] = ""
	}
	seriesKeep := l.seriesKeep()
	var out []*panel
	for i, fk := range facets {
		var in []*config
		for _, c := range cs {
			k := keyOf(c)
			if project(k, l.facetBy) == fk && slices.Contains(l.shown, project(k, seriesKeep)) {
				in = append(in, c)
			}
		}
		ss := groupSeries(in, func(c *config) seriesKey { return project(keyOf(c), seriesKeep) })
		for _, s := range ss {
			s.Label = seriesName(s.Key, l)
		}
		out = append(out, &panel{Label: labels[i], Series: ss})
	}
	return out
}

// seriesName names a line by the value of the series parameter, or by the
// whole configuration when nothing varies.
func seriesName(k seriesKey, l layout) string {
	if l.seriesBy < 0 {
		return labelKeys([]seriesKey{k})[0]
	}
	var parts []string
	for _, i := range l.seriesKeep() {
		parts = append(parts, params[i].format(k))
	}
	return strings.Join(parts, " · ")
}
