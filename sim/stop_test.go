package sim

import (
	"errors"
	"testing"

	"github.com/presage-dvm/presage/sim/result"
	"github.com/presage-dvm/presage/sim/trace"
)

// TestStopBetweenSteps: Predict and Simulate ask Options.Stop every
// stopEvery calls and end with its error, not at the end of the trace.
func TestStopBetweenSteps(t *testing.T) {
	calls := setup()
	for len(calls) < 10*stopEvery {
		calls = append(calls, call(20, "getam_", 0.001, 0.0001, "", "AMRef=e1;"))
	}
	h := &trace.Header{RootLine: 1, RootFile: "c.cdv"}
	m := parseMachine(t, twoProcs)
	cfg := result.Config{Grid: []int{2}}
	errStop := errors.New("stop")
	stopAfter := func(asked *int, n int) func() error {
		return func() error {
			if *asked++; *asked > n {
				return errStop
			}
			return nil
		}
	}
	var asked int
	if _, err := Predict(h, trace.NewSliceSource(calls), m, cfg, Options{Stop: stopAfter(&asked, 3)}); !errors.Is(err, errStop) || asked != 4 {
		t.Errorf("Predict: %v after %d questions; want the stop's error at the 4th", err, asked)
	}
	prog, err := Compile(h, trace.NewSliceSource(calls))
	if err != nil {
		t.Fatal(err)
	}
	asked = 0
	if _, err := Simulate(prog, m, cfg, Options{Stop: stopAfter(&asked, 2)}); !errors.Is(err, errStop) || asked != 3 {
		t.Errorf("Simulate: %v after %d questions; want the stop's error at the 3rd", err, asked)
	}
	asked = 0
	if _, err := Simulate(prog, m, cfg, Options{Stop: stopAfter(&asked, 1<<30)}); err != nil || asked != (len(calls)+stopEvery-1)/stopEvery {
		t.Errorf("Simulate without stopping: %v, %d questions for %d calls", err, asked, len(calls))
	}
}
