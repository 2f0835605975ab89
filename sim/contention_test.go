package sim

import (
	"math"
	"testing"

	"github.com/presage-dvm/presage/sim/result"
)

// TestContention checks the extended model's node contention
// (machine.Machine.Contention, a machine file's contention statement):
// each other process of the run on a processor's node makes its work take
// that fraction longer, so on two processors of one node the user time
// grows by exactly the contention; processes alone on their nodes, and a
// machine without the statement (the original's model), are unchanged.
func TestContention(t *testing.T) {
	predict := func(text string, procs int) result.Values { return predictRoot(t, appendixC(), text, procs).Values }
	const twoNodes = "cluster = c;\nc = {2 x n};\nc.TStart = 10;\nc.TByte = 0.01;\nn = {p};\nn.TStart = 10;\nn.TByte = 0.01;\np = 1.00;\n"
	const contention = "contention = 25;\n" // a quarter per busy neighbour
	for _, c := range []struct {
		name    string
		machine string
		grid    int
		factor  float64 // of the user time
	}{
		{"two processes on one node", twoProcs, 2, 1.25},
		{"one process on a node of two", twoProcs, 1, 1},
		{"two nodes of one processor", twoNodes, 2, 1},
	} {
		without, with := predict(c.machine, c.grid), predict(c.machine+contention, c.grid)
		if without[result.CPUTimeUsr] <= 0 {
			t.Fatalf("%s: no user time to slow", c.name)
		}
		if got := with[result.CPUTimeUsr] / without[result.CPUTimeUsr]; math.Abs(got-c.factor) > 1e-9 {
			t.Errorf("%s: the user time grows %.12g times with the contention, want %g", c.name, got, c.factor)
		}
		if c.factor == 1 && with != without {
			t.Errorf("%s: the contention changes the prediction: %v, want %v", c.name, with, without)
		}
	}
	if got, want := predict(twoProcs+"contention = 0;\n", 2), predict(twoProcs, 2); got != want {
		t.Errorf("contention = 0 changes the prediction: %v, want %v", got, want)
	}
}
