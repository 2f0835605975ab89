package fit

import (
	"math"
	"testing"
)

// syntheticHost is a host whose runs the model predicts as base + msgs·t
// for an interval with msgs in-node messages at start-up time t, and a
// real run takes trueT per message and trueW of run work in the intervals
// open at the end.
type syntheticHost struct {
	base, msgs   []float64
	open         []bool
	trueT, trueW float64
	calls        map[float64]int
}

func (h *syntheticHost) predict(t float64) ([]Observation, error) {
	h.calls[t]++
	obs := make([]Observation, len(h.base))
	for i := range obs {
		meas := h.base[i] + h.msgs[i]*h.trueT
		if h.open[i] {
			meas += h.trueW
		}
		obs[i] = Observation{Predicted: h.base[i] + h.msgs[i]*t, Measured: meas, Open: h.open[i]}
	}
	return obs, nil
}

// TestFitHostRecovers: FitHost finds the start-up time and the run work
// that made the observations, within the refinement's 1%, simulating each
// start-up time once per visit; with observations the start explains
// already, it keeps the start.
func TestFitHostRecovers(t *testing.T) {
	for _, tc := range []struct {
		name         string
		trueT, trueW float64
	}{
		{"slow messages and run work", 30e-6, 0.012},
		{"fast messages, no run work", 2e-6, 0},
		{"slow messages, some run work", 400e-6, 0.005},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := &syntheticHost{
				base:  []float64{2.7, 1.4, 1.3, 0.08, 0.05, 0.6},
				msgs:  []float64{0, 200, 200, 0, 60, 200},
				open:  []bool{true, true, true, true, true, false},
				trueT: tc.trueT, trueW: tc.trueW, calls: map[float64]int{},
			}
			got, err := FitHost(h.predict, 1e-6)
			if err != nil {
				t.Fatal(err)
			}
			if r := got.TStartNode / tc.trueT; r < 0.99 || r > 1.01 {
				t.Errorf("in-node start-up %g, want %g", got.TStartNode, tc.trueT)
			}
			// The run work takes up what the start-up time's last 0.2%
			// leaves on the 200 messages of an open interval.
			if math.Abs(got.RunWork-tc.trueW) > 0.02*tc.trueW+0.002*200*tc.trueT {
				t.Errorf("run work %g, want %g", got.RunWork, tc.trueW)
			}
			if !(got.RMS < got.RMSStart) {
				t.Errorf("RMS %g after the fit, %g at the start: want smaller", got.RMS, got.RMSStart)
			}
			if got.Simulations > 48 {
				t.Errorf("%d start-up times predicted, want at most 48 (a grid of 17, the start, 24 refinements, rounding)", got.Simulations)
			}
		})
	}
	h := &syntheticHost{base: []float64{1, 2}, msgs: []float64{10, 0}, open: []bool{true, false}, trueT: 1e-6, calls: map[float64]int{}}
	got, err := FitHost(h.predict, 1e-6)
	if err != nil {
		t.Fatal(err)
	}
	if got.TStartNode != 1e-6 || got.RunWork != 0 || got.RMS != 0 {
		t.Errorf("observations the start explains: %+v, want the start kept (1e-06, no run work, RMS 0)", got)
	}
}
