package sweepreport

import (
	"strings"
	"testing"

	"github.com/presage-dvm/presage/exports/internal/chart"
	"github.com/presage-dvm/presage/schema/stored"
)

// tree6 is a pre-order list: 1 (2 (3), 4 (5), 6) with the given losses.
func tree6(losses ...float64) []*interval {
	levels := []int{0, 1, 2, 1, 2, 1}
	var ivs []*interval
	for i, l := range levels {
		ivs = append(ivs, &interval{ID: i + 1, Level: l, Values: []float64{losses[i], 0, 0, 0, 0}})
	}
	return ivs
}

func ids(ivs []*interval) string {
	var s []string
	for _, iv := range ivs {
		s = append(s, itoa(iv.ID))
	}
	return strings.Join(s, " ")
}

func TestSubtree(t *testing.T) {
	ivs := tree6(0, 0, 0, 0, 0, 0)
	tests := []struct {
		id   int
		want string
	}{{1, "1 2 3 4 5 6"}, {2, "2 3"}, {4, "4 5"}, {5, "5"}, {6, "6"}, {99, "1 2 3 4 5 6"}}
	for _, tt := range tests {
		if got := ids(subtree(ivs, tt.id)); got != tt.want {
			t.Errorf("subtree(%d) = %s, want %s", tt.id, got, tt.want)
		}
	}
}

// TestLargestLosses: the intervals kept are those with the largest losses,
// listed in tree order; a negative value does not count as a loss.
func TestLargestLosses(t *testing.T) {
	ivs := tree6(9, 1, 7, -20, 8, 2)
	tests := []struct {
		limit int
		want  string
	}{{0, "1 2 3 4 5 6"}, {6, "1 2 3 4 5 6"}, {3, "1 3 5"}, {4, "1 3 5 6"}, {1, "1"}}
	for _, tt := range tests {
		if got := ids(largestLosses(ivs, tt.limit)); got != tt.want {
			t.Errorf("largestLosses(limit %d) = %s, want %s", tt.limit, got, tt.want)
		}
	}
}

// TestIdealSpeedup: the ideal line runs from speedup 1 at the common
// smallest processor count, clipped to the axis; series starting from
// different counts have no common ideal.
func TestIdealSpeedup(t *testing.T) {
	mk := func(procs ...int) *series {
		s := &series{}
		for _, p := range procs {
			s.Points = append(s.Points, point{Procs: p, Best: &config{stored.SweepConfig{Procs: p, Time: 1}}})
		}
		return s
	}
	y := chart.Scale{Lo: 1, Hi: 16, Base: 2}
	got := idealSpeedup([]*series{mk(2, 4, 8), mk(2, 64)}, y)
	if got == nil || got.X0 != 2 || got.Y0 != 1 || got.X1 != 32 || got.Y1 != 16 {
		t.Errorf("ideal = %v, want (2, 1) to (32, 16): clipped at speedup 16", got)
	}
	if got := idealSpeedup([]*series{mk(1, 4), mk(2, 4)}, y); got != nil {
		t.Errorf("ideal = %v for series starting at 1 and 2 processors, want none", got)
	}
	if got := idealSpeedup([]*series{mk(4)}, y); got != nil {
		t.Errorf("ideal = %v for a single processor count, want none", got)
	}
}

// TestTimeScaleChoice: execution times spanning a decade get a log10 axis,
// others a linear one from zero.
func TestTimeScaleChoice(t *testing.T) {
	tests := []struct {
		lo, hi         float64
		base           float64
		wantLo, wantHi float64
	}{
		{0.37, 10.05, 10, 0.2, 20},
		{1.2, 3.4, 0, 0, 4},
		{0, 3, 0, 0, 3},
	}
	for _, tt := range tests {
		s := timeScale(tt.lo, tt.hi)
		if s.Base != tt.base || s.Lo != tt.wantLo || s.Hi != tt.wantHi {
			t.Errorf("timeScale(%g, %g) = base %g [%g, %g], want base %g [%g, %g]",
				tt.lo, tt.hi, s.Base, s.Lo, s.Hi, tt.base, tt.wantLo, tt.wantHi)
		}
	}
}
