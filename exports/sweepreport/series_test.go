package sweepreport

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/presage-dvm/presage/schema/stored"
)

func TestSeriesLabels(t *testing.T) {
	tests := []struct {
		name string
		cs   []*config
		want []string
	}{
		{"one series names everything", []*config{
			{stored.SweepConfig{RunID: 1, Procs: 1, Network: "bus", Machine: "Predictor"}},
			{stored.SweepConfig{RunID: 2, Procs: 2, Network: "bus", Machine: "Predictor"}},
		}, []string{"bus · tstart from file · tbyte from file · power from file · Predictor"}},
		{"only what varies", []*config{
			{stored.SweepConfig{RunID: 1, Procs: 1, Network: "mesh", TByte: 1e-8, Machine: "M"}},
			{stored.SweepConfig{RunID: 2, Procs: 1, Network: "bus", TByte: 1e-8, Machine: "M"}},
			{stored.SweepConfig{RunID: 3, Procs: 1, Network: "bus", TByte: 2e-8, Machine: "M"}},
		}, []string{"bus · tbyte 0.01 µs", "bus · tbyte 0.02 µs", "mesh · tbyte 0.01 µs"}},
		{"power and machine", []*config{
			{stored.SweepConfig{RunID: 1, Procs: 1, Power: 2, Machine: "B"}},
			{stored.SweepConfig{RunID: 2, Procs: 1, Power: 0, Machine: "A"}},
		}, []string{"power from file · A", "power 2 · B"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, s := range buildSeries(tt.cs) {
				got = append(got, s.Label)
			}
			if strings.Join(got, " | ") != strings.Join(tt.want, " | ") {
				t.Errorf("labels %q, want %q", got, tt.want)
			}
		})
	}
}

// TestSeriesPoints: points are sorted by processors; at one processor
// count the fastest configuration is on the line (the lower run id on a
// tie, a time that is not a number never); speedup is relative to the
// series' first point.
func TestSeriesPoints(t *testing.T) {
	cs := []*config{
		{stored.SweepConfig{RunID: 1, Procs: 8, Grid: "2x4", Time: 2}},
		{stored.SweepConfig{RunID: 2, Procs: 2, Grid: "2", Time: 6}},
		{stored.SweepConfig{RunID: 3, Procs: 8, Grid: "4x2", Time: 1.5}},
		{stored.SweepConfig{RunID: 4, Procs: 8, Grid: "8", Time: 1.5}},
		{stored.SweepConfig{RunID: 5, Procs: 4, Grid: "4", Time: math.NaN()}},
		{stored.SweepConfig{RunID: 6, Procs: 4, Grid: "2x2", Time: 3}},
	}
	ss := buildSeries(cs)
	if len(ss) != 1 {
		t.Fatalf("%d series, want 1", len(ss))
	}
	s := ss[0]
	var procs []int
	var best []int64
	for _, p := range s.Points {
		procs = append(procs, p.Procs)
		best = append(best, p.Best.RunID)
	}
	if want := []int{2, 4, 8}; !slices.Equal(procs, want) {
		t.Errorf("processors %v, want %v", procs, want)
	}
	if want := []int64{2, 6, 3}; !slices.Equal(best, want) {
		t.Errorf("best runs %v, want %v", best, want)
	}
	if others := s.Points[2].Others; len(others) != 2 || others[0].RunID != 1 || others[1].RunID != 4 {
		t.Errorf("others at 8 processors: %v, want runs 1 and 4", others)
	}
	if got := s.Speedup(s.Points[2].Best); got != 4 {
		t.Errorf("speedup on 8 processors = %g, want 6/1.5 = 4", got)
	}
	if got := s.Speedup(cs[4]); !math.IsNaN(got) {
		t.Errorf("speedup of a NaN time = %g, want NaN", got)
	}
}
