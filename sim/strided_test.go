package sim

import (
	"math"
	"testing"

	"github.com/presage-dvm/presage/internal/golden"
	"github.com/presage-dvm/presage/sim/result"
)

// TestStrided checks the extended model's strided iteration time
// (machine.Machine.Strided, a machine file's strided statement): on grid
// 1x2 sor's ACROSS loop is pipelined across its array's contiguous
// dimension, and the user time grows by exactly the time for each of the
// loop's iterations (20 executions of 8 × 8); on 2x1, whose pipeline cuts
// the other dimension, on one processor, and on a machine without the
// statement (the original's model), the prediction is unchanged.
func TestStrided(t *testing.T) {
	prog := compileFile(t, golden.Path(t, "traces", "sor_e4.ptr"))
	predict := func(text string, grid ...int) result.Values {
		t.Helper()
		run, err := Simulate(prog, parseMachine(t, text), result.Config{Grid: grid}, Options{TraceFile: "sor_e4.ptr"})
		if err != nil {
			t.Fatal(err)
		}
		return run.Interval(run.ReportRoot).Values
	}
	const strided = "strided = 500;\n" // ns per iteration
	const iterations = 20 * 8 * 8
	without, with := predict(twoProcs, 1, 2), predict(twoProcs+strided, 1, 2)
	if got, want := with[result.CPUTimeUsr]-without[result.CPUTimeUsr], 500e-9*iterations; math.Abs(got-want) > 1e-12 {
		t.Errorf("1x2: the user time grows %.9g s with the strided iteration time, want %.9g", got, want)
	}
	if with[result.ExecutionTime] <= without[result.ExecutionTime] {
		t.Errorf("1x2: execution time %g with the strided iteration time, %g without: want it longer", with[result.ExecutionTime], without[result.ExecutionTime])
	}
	for _, grid := range [][]int{{2, 1}, {1}} {
		if got, want := predict(twoProcs+strided, grid...), predict(twoProcs, grid...); got != want {
			t.Errorf("%v: the strided iteration time changes the prediction: %v, want %v", grid, got, want)
		}
	}
	if got := predict(twoProcs+"strided = 0;\n", 1, 2); got != without {
		t.Errorf("strided = 0 changes the prediction: %v, want %v", got, without)
	}
}
