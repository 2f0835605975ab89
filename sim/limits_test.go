package sim

import (
	"errors"
	"strings"
	"testing"

	"github.com/presage-dvm/presage/internal/golden"
	"github.com/presage-dvm/presage/sim/engine"
	"github.com/presage-dvm/presage/sim/result"
)

// TestMaxState: a configuration whose counters need more than
// Options.MaxState fails with a limit error naming its grid, while one
// that needs less is simulated as without a limit.
func TestMaxState(t *testing.T) {
	prog := compileFile(t, golden.Path(t, "traces", "jac.ptr"))
	m := loadMachine(t, "Predictor")
	simulate := func(grid []int, max int64) (*result.Run, error) {
		return Simulate(prog, m, result.Config{Grid: grid}, Options{TraceFile: "jac.ptr", MaxState: max})
	}
	// The least budget grid 1 (one class of processors) needs, by
	// bisection over what passes.
	lo, hi := int64(1), int64(1<<30)
	for lo < hi {
		mid := (lo + hi) / 2
		if _, err := simulate([]int{1}, mid); err == nil {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	free, err := simulate([]int{1}, 0)
	if err != nil {
		t.Fatal(err)
	}
	if tight, err := simulate([]int{1}, lo); err != nil || tight.Intervals[0].Values != free.Intervals[0].Values {
		t.Fatalf("grid 1 within %d bytes: %v, or other values", lo, err)
	}
	// Grid 3x3 splits the 8x8 arrays unevenly: more classes, more rows.
	_, err = simulate([]int{3, 3}, lo)
	var e *engine.Error
	if !errors.As(err, &e) || !e.Limit || !strings.Contains(err.Error(), "grid 3x3 needs more than 0 MB of simulator state") {
		t.Fatalf("grid 3x3 within grid 1's %d bytes: %v; want a limit error naming the grid", lo, err)
	}
	if _, err := simulate([]int{3, 3}, 0); err != nil {
		t.Fatalf("grid 3x3 with the default limit: %v", err)
	}
}
