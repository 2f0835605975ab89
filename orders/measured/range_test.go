package measured

import (
	"math"
	"testing"

	"github.com/presage-dvm/presage/sim/machine"
)

// The file's durations keep sim/machine's DurationRange, which this
// package, linked by the runtime, cannot import: the bound and its
// message are the range's.
func TestDurationIsMachineRange(t *testing.T) {
	r := machine.DurationRange
	if r.Min != 0 || r.Max != maxDuration {
		t.Fatalf("machine.DurationRange is [%v, %v], this package's [0, %v]", r.Min, r.Max, float64(maxDuration))
	}
	if want := r.Want(1, "seconds"); durationWant != want {
		t.Errorf("durationWant = %q, machine.DurationRange says %q", durationWant, want)
	}
	for _, v := range []float64{-1e-300, 0, 1, maxDuration, math.Nextafter(maxDuration, math.Inf(1)), math.NaN(), math.Inf(1)} {
		if got, want := duration(v), r.Contains(v); got != want {
			t.Errorf("duration(%v) = %v, machine.DurationRange.Contains says %v", v, got, want)
		}
	}
}
