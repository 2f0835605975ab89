package sweepreport

import (
	"slices"
	"strings"
	"testing"

	"github.com/presage-dvm/presage/exports/internal/chart"
	"github.com/presage-dvm/presage/schema/stored"
)

// grid returns one configuration per combination of networks and
// start-up times (µs), at 1 and 2 processors.
func grid(networks []string, tstarts []float64) []*config {
	var cs []*config
	id := int64(0)
	for _, n := range networks {
		for _, t := range tstarts {
			for _, p := range []int{1, 2} {
				id++
				cs = append(cs, &config{stored.SweepConfig{RunID: id, Procs: p, Network: n, TStart: t / 1e6, Time: 1}})
			}
		}
	}
	return cs
}

func TestChooseLayout(t *testing.T) {
	many := make([]float64, 20)
	for i := range many {
		many[i] = float64(i + 1)
	}
	tests := []struct {
		name   string
		cs     []*config
		series string   // the series parameter, "" when none
		facets []string // the facets' labels
		lines  []string // the first facet's lines
		notes  int
	}{
		{"nothing varies", grid([]string{"bus"}, []float64{1}), "", []string{""},
			[]string{"bus · tstart 1 µs · tbyte from file · power from file · no machine"}, 0},
		{"README: lines per start-up time, a chart per network",
			grid([]string{"cluster", "bus", "mesh"}, []float64{1, 10, 100}), "start-up time",
			[]string{"bus", "cluster", "mesh"}, []string{"tstart 1 µs", "tstart 10 µs", "tstart 100 µs"}, 0},
		{"too many start-up times for facets: pooled into the bands",
			grid([]string{"bus", "mesh"}, many), "network", []string{""}, []string{"bus", "mesh"}, 1},
		{"too many values for lines: thinned evenly",
			grid([]string{"bus"}, many), "start-up time", []string{""},
			[]string{"tstart 1 µs", "tstart 4 µs", "tstart 6 µs", "tstart 9 µs", "tstart 12 µs", "tstart 15 µs", "tstart 17 µs", "tstart 20 µs"}, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := chooseLayout(tt.cs)
			got := ""
			if l.seriesBy >= 0 {
				got = params[l.seriesBy].name
			}
			if got != tt.series {
				t.Errorf("series parameter %q, want %q", got, tt.series)
			}
			ps := panels(tt.cs, l)
			var facets, lines []string
			for _, p := range ps {
				facets = append(facets, p.Label)
				if len(p.Series) > maxSeries {
					t.Errorf("facet %q: %d lines, more than %d", p.Label, len(p.Series), maxSeries)
				}
			}
			for _, s := range ps[0].Series {
				lines = append(lines, s.Label)
			}
			if len(facets) > maxFacets {
				t.Errorf("%d facets, more than %d", len(facets), maxFacets)
			}
			if !slices.Equal(facets[:min(len(facets), len(tt.facets))], tt.facets) {
				t.Errorf("facets %q, want %q", facets, tt.facets)
			}
			if !slices.Equal(lines, tt.lines) {
				t.Errorf("lines %q, want %q", lines, tt.lines)
			}
			if n := len(l.notes()); n != tt.notes {
				t.Errorf("notes %q, want %d", strings.Join(l.notes(), " / "), tt.notes)
			}
		})
	}
}

// TestThin keeps the ends and spaces the rest evenly.
func TestThin(t *testing.T) {
	var ks []seriesKey
	for i := range 10 {
		ks = append(ks, seriesKey{TStart: float64(i)})
	}
	var got []float64
	for _, k := range chart.Spread(ks, 4) {
		got = append(got, k.TStart)
	}
	if want := []float64{0, 3, 6, 9}; !slices.Equal(got, want) {
		t.Errorf("thin to 4 = %v, want %v", got, want)
	}
}
