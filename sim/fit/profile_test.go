package fit

import (
	"math"
	"testing"
)

// syntheticHost is a host whose runs the model predicts as base + msgs·t
// for an interval with msgs in-node messages at start-up time t, and a
// real run takes trueT per message, trueW of run work in the intervals
// open at the end and trueK per byte its I/O statements copy (bytes).
type syntheticHost struct {
	base, msgs, bytes   []float64
	open                []bool
	trueT, trueW, trueK float64
	calls               map[float64]int
}

func (h *syntheticHost) predict(t float64) ([]Observation, error) {
	h.calls[t]++
	obs := make([]Observation, len(h.base))
	for i := range obs {
		meas := h.base[i] + h.msgs[i]*h.trueT
		if h.open[i] {
			meas += h.trueW
		}
		var b float64
		if h.bytes != nil {
			b = h.bytes[i]
		}
		meas += b * h.trueK
		obs[i] = Observation{Predicted: h.base[i] + h.msgs[i]*t, Measured: meas, Open: h.open[i], IOBytes: b}
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
			got, err := FitHost(h.predict, 1e-6, 0)
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
	got, err := FitHost(h.predict, 1e-6, 0)
	if err != nil {
		t.Fatal(err)
	}
	if got.TStartNode != 1e-6 || got.RunWork != 0 || got.RMS != 0 {
		t.Errorf("observations the start explains: %+v, want the start kept (1e-06, no run work, RMS 0)", got)
	}
}

// TestFitHostIOByte: runs of two sizes, whose I/O statements copy
// different amounts, tell the I/O copy time from the run work, and
// FitHost recovers both; runs of one size do not, and the I/O copy time
// stays the value given while the run work takes up the rest.
func TestFitHostIOByte(t *testing.T) {
	const trueT, trueW, trueK = 30e-6, 0.008, 0.9e-9
	twoSizes := &syntheticHost{
		base:  []float64{2.7, 1.4, 1.3, 0.08, 0.05, 0.06, 0.6},
		msgs:  []float64{0, 200, 200, 0, 60, 60, 200},
		bytes: []float64{64e6, 64e6, 64e6, 4e6, 4e6, 4e6, 0},
		open:  []bool{true, true, true, true, true, true, false},
		trueT: trueT, trueW: trueW, trueK: trueK, calls: map[float64]int{},
	}
	got, err := FitHost(twoSizes.predict, 1e-6, 0)
	if err != nil {
		t.Fatal(err)
	}
	if !got.IOByteFitted {
		t.Fatalf("two sizes: the I/O copy time was not fitted: %+v", got)
	}
	// Within what the start-up time's last 0.2% leaves on 200 messages.
	if r := got.IOByte / trueK; r < 0.97 || r > 1.03 {
		t.Errorf("two sizes: I/O copy time %g s/B, want %g", got.IOByte, trueK)
	}
	if math.Abs(got.RunWork-trueW) > 0.05*trueW {
		t.Errorf("two sizes: run work %g, want %g", got.RunWork, trueW)
	}
	oneSize := &syntheticHost{
		base:  []float64{2.7, 1.4, 1.3, 0.6},
		msgs:  []float64{0, 200, 200, 200},
		bytes: []float64{64e6, 64e6, 64e6, 0},
		open:  []bool{true, true, true, false},
		trueT: trueT, trueW: trueW, trueK: trueK, calls: map[float64]int{},
	}
	const given = 0.2e-9
	got, err = FitHost(oneSize.predict, 1e-6, given)
	if err != nil {
		t.Fatal(err)
	}
	if got.IOByteFitted || got.IOByte != given {
		t.Errorf("one size: I/O copy time %g (fitted %v), want the given %g kept", got.IOByte, got.IOByteFitted, given)
	}
	// The run work takes up the rest of the 65.6 ms the open intervals
	// lack.
	if want := trueW + (trueK-given)*64e6; math.Abs(got.RunWork-want) > 0.02*want {
		t.Errorf("one size: run work %g, want %g", got.RunWork, want)
	}
}
