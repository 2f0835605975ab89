package orders

import (
	"testing"
	"time"
)

// TestBlockCPU: a block's time is its thread's CPU time, or its wall time
// when the thread's clock could not be read or did not move: never 0,
// which a calibration file refuses.
func TestBlockCPU(t *testing.T) {
	for _, c := range []struct {
		name    string
		elapsed time.Duration
		read    bool
		want    float64
	}{
		{"the thread's clock", 3 * time.Microsecond, true, 3e-6},
		{"the clock did not move", 0, true, 5e-6},
		{"the clock went back", -time.Microsecond, true, 5e-6},
		{"the clock could not be read", 3 * time.Microsecond, false, 5e-6},
	} {
		if got := blockCPU(c.elapsed, c.read, 5e-6); got != c.want {
			t.Errorf("%s: blockCPU = %g, want %g", c.name, got, c.want)
		}
	}
}
