package fit

import (
	"math"
	"testing"
)

// syntheticHost is a host whose runs the model predicts as base + msgs·t
// for an interval with msgs in-node messages at start-up time t, and a
// real run takes trueT per message, trueW of run work in the intervals
// open at the end, trueK per byte its I/O statements copy (bytes) and
// trueC times the work its processes do beside another on their node
// (shared), and trueS per iteration of a loop pipelined across its
// array's contiguous dimension (strided).
type syntheticHost struct {
	base, msgs, bytes, shared, strided []float64
	open                               []bool
	trueT, trueW, trueK, trueC, trueS  float64
	calls                              map[float64]int
	slowed                             map[int]float64 // measured times the host slowed, by observation: the factor
	spread                             map[int]float64 // the rounds' spread, by observation (Observation.Spread)
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
		var w float64
		if h.shared != nil {
			w = h.shared[i]
		}
		meas += w * h.trueC
		var s float64
		if h.strided != nil {
			s = h.strided[i]
		}
		meas += s * h.trueS
		if k, ok := h.slowed[i]; ok {
			meas *= k
		}
		obs[i] = Observation{Predicted: h.base[i] + h.msgs[i]*t, Measured: meas, Open: h.open[i], IOBytes: b, Contended: w, Strided: s,
			Spread: h.spread[i]}
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
// FitHost recovers both; runs of one size do not: with an I/O copy time
// given, it is kept and the run work takes up the rest; with none, the
// I/O copy time takes it all up and the run work stays 0; with no bytes
// copied, the run work does.
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
	if got.Split != SplitBySizes {
		t.Fatalf("two sizes: split %v, want both terms fitted: %+v", got.Split, got)
	}
	// Within what the start-up time's last 0.2% leaves on 200 messages.
	if r := got.IOByte / trueK; r < 0.97 || r > 1.03 {
		t.Errorf("two sizes: I/O copy time %g s/B, want %g", got.IOByte, trueK)
	}
	if math.Abs(got.RunWork-trueW) > 0.05*trueW {
		t.Errorf("two sizes: run work %g, want %g", got.RunWork, trueW)
	}
	oneSize := func() *syntheticHost {
		return &syntheticHost{
			base:  []float64{2.7, 1.4, 1.3, 0.6},
			msgs:  []float64{0, 200, 200, 200},
			bytes: []float64{64e6, 64e6, 64e6, 0},
			open:  []bool{true, true, true, false},
			trueT: trueT, trueW: trueW, trueK: trueK, calls: map[float64]int{},
		}
	}
	// What the open intervals lack beyond the model: 65.6 ms.
	const lack = trueW + trueK*64e6
	for _, tc := range []struct {
		name          string
		given         float64
		noBytes       bool
		split         IOSplit
		ioByte, runWk float64
	}{
		{"an I/O copy time given", 0.2e-9, false, SplitGiven, 0.2e-9, lack - 0.2e-9*64e6},
		{"none given", 0, false, SplitToBytes, lack / 64e6, 0},
		{"no bytes copied", 0, true, SplitGiven, 0, lack},
	} {
		h := oneSize()
		if tc.noBytes {
			h.bytes, h.trueW, h.trueK = nil, lack, 0
		}
		got, err := FitHost(h.predict, 1e-6, tc.given)
		if err != nil {
			t.Fatal(err)
		}
		if got.Split != tc.split {
			t.Errorf("one size, %s: split %v, want %v", tc.name, got.Split, tc.split)
		}
		if tc.split == SplitGiven && got.IOByte != tc.ioByte || math.Abs(got.IOByte-tc.ioByte) > 0.02*tc.ioByte {
			t.Errorf("one size, %s: I/O copy time %g, want %g", tc.name, got.IOByte, tc.ioByte)
		}
		if math.Abs(got.RunWork-tc.runWk) > 0.02*tc.runWk {
			t.Errorf("one size, %s: run work %g, want %g", tc.name, got.RunWork, tc.runWk)
		}
	}
}

// TestFitHostContention: runs whose processes share a node measured
// slower in their work than their one-process trace, by the contention
// (runs of one process on the node are not), and FitHost recovers the
// contention beside the start-up time and the run work, instead of
// bending the start-up time to take it up; without such runs, it fits
// none.
func TestFitHostContention(t *testing.T) {
	const trueT, trueW, trueC = 20e-6, 0.01, 0.15
	// One process (no contention), then two grids of two processes on
	// one node: their work is what the contention slows.
	h := &syntheticHost{
		base:   []float64{2.7, 1.4, 1.3, 0.08, 0.05, 0.05},
		msgs:   []float64{0, 200, 100, 0, 60, 30},
		shared: []float64{0, 1.35, 1.3, 0, 0.04, 0.045},
		open:   []bool{true, true, true, true, true, true},
		trueT:  trueT, trueW: trueW, trueC: trueC, calls: map[float64]int{},
	}
	got, err := FitHost(h.predict, 1e-6, 0)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(got.Contention-trueC) > 0.01 {
		t.Errorf("contention %g, want %g", got.Contention, trueC)
	}
	if r := got.TStartNode / trueT; r < 0.95 || r > 1.05 {
		t.Errorf("in-node start-up %g, want %g within 5%%", got.TStartNode, trueT)
	}
	if math.Abs(got.RunWork-trueW) > 0.05*trueW {
		t.Errorf("run work %g, want %g", got.RunWork, trueW)
	}
	alone := &syntheticHost{base: []float64{2.7, 0.08}, msgs: []float64{0, 0}, open: []bool{true, true},
		trueW: trueW, calls: map[float64]int{}}
	if got, err := FitHost(alone.predict, 1e-6, 0); err != nil || got.Contention != 0 {
		t.Errorf("runs of one process: contention %g (%v), want 0", got.Contention, err)
	}
}

// TestFitHostStrided: runs whose loop is pipelined across its array's
// contiguous dimension (two grids of 1x2, big and small, 4e8 and 1e7
// strided iterations) beside runs whose is not: FitHost finds the strided
// iteration time that made them, and the contention the others tell,
// which the strided runs' slowness does not take up; with no strided
// run, the strided iteration time is 0.
func TestFitHostStrided(t *testing.T) {
	const trueT, trueW, trueC, trueS = 20e-6, 0.01, 0.1, 3.6e-9
	// Grids 1, 2x1 and 1x2 of a big and a small size; 1x2 is strided.
	h := &syntheticHost{
		base:    []float64{4.5, 2.3, 2.3, 0.13, 0.07, 0.07},
		msgs:    []float64{0, 100, 100, 0, 40, 40},
		shared:  []float64{0, 2.2, 2.2, 0, 0.06, 0.06},
		strided: []float64{0, 0, 4e8, 0, 0, 1e7},
		open:    []bool{true, true, true, true, true, true},
		trueT:   trueT, trueW: trueW, trueC: trueC, trueS: trueS, calls: map[float64]int{},
	}
	got, err := FitHost(h.predict, 1e-6, 0)
	if err != nil {
		t.Fatal(err)
	}
	if r := got.Strided / trueS; r < 0.97 || r > 1.03 {
		t.Errorf("strided iteration time %g, want %g within 3%%", got.Strided, trueS)
	}
	if math.Abs(got.Contention-trueC) > 0.01 {
		t.Errorf("contention %g, want %g", got.Contention, trueC)
	}
	h.strided, h.trueS = nil, 0
	if got, err := FitHost(h.predict, 1e-6, 0); err != nil || got.Strided != 0 {
		t.Errorf("no strided run: strided iteration time %g (%v), want 0", got.Strided, err)
	}
}

// slowedGridHost is a host of three grids of two sizes whose
// message-heavy grid of the big size is measured slowdown times slow, its
// rounds spread by spread (Observation.Spread).
func slowedGridHost(slowdown, spread float64) *syntheticHost {
	return &syntheticHost{
		base:  []float64{2.7, 1.4, 1.4, 1.3, 1.3, 0.08, 0.05, 0.05, 0.05, 0.05},
		msgs:  []float64{0, 2000, 2000, 1000, 1000, 0, 400, 400, 200, 200},
		open:  []bool{true, true, true, true, true, true, true, true, true, true},
		trueT: 30e-6, calls: map[float64]int{},
		slowed: map[int]float64{1: slowdown, 2: slowdown},
		spread: map[int]float64{1: spread, 2: spread},
	}
}

// TestFitHostResistsASlowedGrid: when the runs of one grid are measured
// slow (as sor's 1x2 runs all were in one check), how slow does
// not move the fitted start-up time, which the runs that agree keep near
// theirs: a grid 25% or 50% slow pulls it alike, within 10% of the true
// one. By squares it followed them: 35.6 µs at 25%, 40.5 µs at 50%.
func TestFitHostResistsASlowedGrid(t *testing.T) {
	fit := func(slowdown float64) float64 {
		h := slowedGridHost(slowdown, 0)
		got, err := FitHost(h.predict, 1e-6, 0)
		if err != nil {
			t.Fatal(err)
		}
		if r := got.TStartNode / h.trueT; r < 0.9 || r > 1.1 {
			t.Errorf("grid %.0f%% slow: in-node start-up %.3g, want %.3g within 10%%", 100*(slowdown-1), got.TStartNode, h.trueT)
		}
		return got.TStartNode
	}
	if a, b := fit(1.25), fit(1.5); math.Abs(b/a-1) > 0.01 {
		t.Errorf("in-node start-up %.3g with the grid 25%% slow, %.3g with it 50%% slow: want the same", a, b)
	}
}

// TestFitHostWeighsBySpread: a grid measured 30% slow whose rounds spread
// by 60% pulls the start-up time less than the same grid with rounds that
// agree: its residuals count in units of its own spread.
func TestFitHostWeighsBySpread(t *testing.T) {
	fit := func(spread float64) float64 {
		h := slowedGridHost(1.3, spread)
		got, err := FitHost(h.predict, 1e-6, 0)
		if err != nil {
			t.Fatal(err)
		}
		return math.Abs(got.TStartNode/h.trueT - 1)
	}
	tight, wide := fit(0), fit(0.6)
	if wide >= tight/2 {
		t.Errorf("start-up time off by %.1f%% with the slow grid's rounds spread by 60%%, %.1f%% with them agreeing: want less than half", 100*wide, 100*tight)
	}
	if narrow := fit(2 * HuberDelta); narrow != tight {
		t.Errorf("rounds spread within the bound: start-up time off by %.2f%%, want %.2f%% as with none", 100*narrow, 100*tight)
	}
}

// TestHuber: the square within HuberDelta, then the line that continues it
// (value and slope equal at the joint), alike for both signs.
func TestHuber(t *testing.T) {
	d := HuberDelta
	for _, tc := range []struct{ r, want float64 }{
		{0, 0}, {0.05, 0.0025}, {-0.05, 0.0025}, {d, d * d}, {-d, d * d},
		{3 * d, 2*d*3*d - d*d}, {-3 * d, 2*d*3*d - d*d},
	} {
		if got := huber(tc.r); math.Abs(got-tc.want) > 1e-15 {
			t.Errorf("huber(%g) = %g, want %g", tc.r, got, tc.want)
		}
	}
	if slope := (huber(d+1e-7) - huber(d)) / 1e-7; math.Abs(slope-2*d) > 1e-5 {
		t.Errorf("slope beyond the joint %g, want %g", slope, 2*d)
	}
}
