package sim

import (
	"math"
	"testing"

	"github.com/presage-dvm/presage/sim/result"
)

// TestRunWork checks the extended model's run work (machine.Machine.RunWork,
// a machine file's runwork statement): every processor spends it at the
// trace's end, so Main, open to the end, grows by exactly the run work, and
// the insufficient parallelism by its replicated share, (P−1)/P of it per
// processor; without the statement nothing changes (the original's model).
func TestRunWork(t *testing.T) {
	predict := func(text string) result.Values { return predictRoot(t, appendixC(), text, 2).Values }
	const runWork = 0.005 // runwork = 5000 µs
	without, with := predict(twoProcs), predict(twoProcs+"runwork = 5000;\n")
	for _, c := range []struct {
		char result.Char
		grow float64
	}{
		{result.ExecutionTime, runWork},
		{result.InsuffParallelismSys, 2 * runWork / 2}, // two processors, half of each one's
		{result.CPUTimeSys, 2 * runWork},
		{result.CPUTimeUsr, 0},
		{result.Communication, 0},
	} {
		if got := with[c.char] - without[c.char]; math.Abs(got-c.grow) > 1e-12 {
			t.Errorf("%s grows by %.12g with the run work, want %g", c.char, got, c.grow)
		}
	}
	if got := predict(twoProcs + "runwork = 0;\n"); got != without {
		t.Errorf("runwork = 0 changes the prediction: %v, want %v", got, without)
	}
}
