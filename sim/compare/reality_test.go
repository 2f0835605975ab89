package compare

import (
	"math"
	"testing"
)

// TestRealityHolds: a prediction holds a run when it is within the bound
// of the measured median, or within the rounds' spread where the rounds
// spread more than the bound; a missing prediction (NaN) never holds.
func TestRealityHolds(t *testing.T) {
	quiet := RealityRow{Measured: []float64{1.00, 1.02, 0.99}}
	noisy := RealityRow{Measured: []float64{1.0, 1.3, 0.95}} // spread 35% of the median
	for _, tc := range []struct {
		name string
		row  RealityRow
		pred float64
		want bool
	}{
		{"within 10% above", quiet, 1.09, true},
		{"within 10% below", quiet, 0.91, true},
		{"beyond 10%", quiet, 1.12, false},
		{"beyond 10%, below", quiet, 0.89, false},
		{"beyond 10% but within a wide spread", noisy, 1.25, true},
		{"beyond a wide spread", noisy, 1.35, false},
		{"no prediction", quiet, math.NaN(), false},
	} {
		if got := tc.row.Holds(tc.pred, 0.10); got != tc.want {
			t.Errorf("%s: Holds(%g) = %v, want %v", tc.name, tc.pred, got, tc.want)
		}
	}
	r := &Reality{Rows: []RealityRow{
		{Trace: "a", Depth: 0, Measured: []float64{1}, Predicted: 1.2, Extended: 1.05},
		{Trace: "a", Depth: 1, Measured: []float64{1}, Predicted: 1, Extended: 2}, // not a run: not counted
		{Trace: "b", Depth: 0, Measured: []float64{1}, Predicted: 0.95, Extended: 0.8},
	}}
	if p, e, n := r.Within(0.10); p != 1 || e != 1 || n != 2 {
		t.Errorf("Within: original %d, extended %d of %d runs; want 1, 1 of 2", p, e, n)
	}
	if miss := r.ExtendedMisses(0.10); len(miss) != 1 || miss[0].Trace != "b" {
		t.Errorf("ExtendedMisses: %+v, want run b alone", miss)
	}
}
