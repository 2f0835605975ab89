package fit

import (
	"math"
	"slices"
	"testing"
)

// TestFitRecovers fits a synthetic model, time = work/power + msgs·tstart,
// whose true parameters are known.
func TestFitRecovers(t *testing.T) {
	truth := Params{Power: 0.4, TStart: [Levels]float64{7e-6, 50e-6}, TByte: [Levels]float64{4e-9, 1e-9}, Oversub: 1e-6}
	type obs struct{ work, msgs float64 }
	data := []obs{{1e-3, 0}, {2e-3, 10}, {5e-4, 100}, {1e-2, 40}}
	model := func(p Params, o obs) float64 { return o.work/p.Power + o.msgs*p.TStart[1] }
	res := func(p Params) ([]float64, error) {
		out := make([]float64, len(data))
		for i, o := range data {
			out[i] = Residual(model(p, o), model(truth, o))
		}
		return out, nil
	}
	start := truth
	start.Power, start.TStart[1] = 1, 1e-6
	r, err := Fit(start, []Param{Power, TStartNode}, res, 2000, nil)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(r.Params.Power/truth.Power-1) > 0.01 || math.Abs(r.Params.TStart[1]/truth.TStart[1]-1) > 0.05 || r.RMS > 1e-3 {
		t.Errorf("fitted %v (RMS %g), want %v", r.Params, r.RMS, truth)
	}
	if r.Params.TStart[0] != truth.TStart[0] {
		t.Errorf("a parameter not free moved: %v", r.Params.TStart[0])
	}
}

// synthetic is a model of runs on 1 and 2 processes that depends on the
// power and the node's start-up time only: time = work/power +
// msgs·TStart[1].
type synthetic struct{ work, msgs float64 }

func syntheticResiduals(data []synthetic, measured []float64) Residuals {
	return func(p Params) ([]float64, error) {
		out := make([]float64, len(data))
		for i, o := range data {
			out[i] = Residual(o.work/p.Power+o.msgs*p.TStart[1], measured[i])
		}
		return out, nil
	}
}

// TestFitPowerStaysOne: on the traced host (powerFree off) the power is
// not a free parameter, so it stays 1 even where a power below 1 would fit
// the runs better (runs slower than the trace, as a loaded machine's are);
// another host's runs fit it.
func TestFitPowerStaysOne(t *testing.T) {
	host := Host{Nodes: 1, CoresPerNode: 2}
	free := Free(host, []int{1, 2}, false, false)
	if slices.Contains(free, Power) {
		t.Fatalf("free parameters on the traced host %v include the power", free)
	}
	data := []synthetic{{1e-2, 0}, {5e-3, 20}, {5e-3, 40}}
	measured := []float64{1.2e-2, 6e-3 + 20*30e-6, 6e-3 + 40*30e-6}
	start := Params{Power: 1, TStart: [Levels]float64{7e-6, 1e-6}, TByte: [Levels]float64{4e-9, 1e-9}, Oversub: 1e-6}
	r, err := Fit(start, free, syntheticResiduals(data, measured), 2000, nil)
	if err != nil {
		t.Fatal(err)
	}
	if r.Params.Power != 1 || r.Kept {
		t.Errorf("fitted power %g (kept %v), want 1 and a fit", r.Params.Power, r.Kept)
	}
	if r.Params.TStart[1] <= start.TStart[1] || r.RMS >= r.StartRMS {
		t.Errorf("fitted %v, RMS %g from %g: want a larger in-node TStart and a smaller error", r.Params, r.RMS, r.StartRMS)
	}
	r, err = Fit(start, Free(host, []int{1, 2}, true, false), syntheticResiduals(data, measured), 2000, nil)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(r.Params.Power-1/1.2) > 0.01 {
		t.Errorf("another host's runs fitted power %g, want %g", r.Params.Power, 1/1.2)
	}
}

// TestFitUnusedStaysAtPrior: a free parameter no observation depends on
// keeps its start (the machine file's value) exactly, even one outside the
// bounds, rather than going to a bound.
func TestFitUnusedStaysAtPrior(t *testing.T) {
	data := []synthetic{{1e-2, 0}, {5e-3, 20}, {5e-3, 40}}
	measured := []float64{1e-2, 5e-3 + 20*30e-6, 5e-3 + 40*30e-6}
	start := Params{Power: 1, TStart: [Levels]float64{7e-6, 1e-6}, TByte: [Levels]float64{4e-9, 3e-9}, Oversub: 0}
	r, err := Fit(start, []Param{TStartNode, TByteNode, TStartNodes, Oversub}, syntheticResiduals(data, measured), 2000, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(r.Fitted, []Param{TStartNode}) || !slices.Equal(r.Unused, []Param{TByteNode, TStartNodes, Oversub}) {
		t.Errorf("fitted %v, unused %v; want [%v], [%v %v %v]", r.Fitted, r.Unused, TStartNode, TByteNode, TStartNodes, Oversub)
	}
	if r.Params.TByte[1] != start.TByte[1] || r.Params.TStart[0] != start.TStart[0] || r.Params.Oversub != 0 {
		t.Errorf("unused parameters moved: %v, start %v", r.Params, start)
	}
	if math.Abs(r.Params.TStart[1]/30e-6-1) > 0.01 {
		t.Errorf("in-node TStart %g, want 30 µs", r.Params.TStart[1])
	}
}

// TestFitKeepsStart: when the starting machine's residuals (another
// machine than the start on the host, as a machine file's can be) are
// smaller than anything the fitted parameters give, the fit keeps the
// start and says so; within the bounds, a parameter that would need to
// leave them to fit stops at its bound.
func TestFitKeepsStart(t *testing.T) {
	data := []synthetic{{1e-2, 0}, {5e-3, 20}}
	measured := []float64{1e-2, 5e-3 + 20*30e-6}
	start := Params{Power: 1, TStart: [Levels]float64{7e-6, 1e-6}, TByte: [Levels]float64{4e-9, 1e-9}, Oversub: 1e-6}
	startRes := []float64{0, 1e-4}
	r, err := Fit(start, []Param{TStartNode}, syntheticResiduals(data, measured), 2000, startRes)
	if err != nil {
		t.Fatal(err)
	}
	if !r.Kept || r.Params != start || !slices.Equal(r.Residuals, startRes) || r.RMS != r.StartRMS {
		t.Errorf("fit worse than the start: kept %v, %v, residuals %v (RMS %g, start %g)", r.Kept, r.Params, r.Residuals, r.RMS, r.StartRMS)
	}
	// Measured times that only an in-node start-up of 10 ms explains: the
	// fit stops at the bound (1 ms), still better than the start.
	measured = []float64{1e-2, 5e-3 + 20*10e-3}
	r, err = Fit(start, []Param{TStartNode}, syntheticResiduals(data, measured), 2000, nil)
	if err != nil {
		t.Fatal(err)
	}
	if r.Kept || r.Params.TStart[1] != Bounds[TStartNode][1] {
		t.Errorf("in-node TStart %g (kept %v), want the bound %g", r.Params.TStart[1], r.Kept, Bounds[TStartNode][1])
	}
}

func TestHostMachine(t *testing.T) {
	h := Host{Nodes: 1, CoresPerNode: 2, Network: "shared-memory"}
	p := Params{Power: 1, TStart: [Levels]float64{7e-6, 1e-6}, Oversub: 1e-3}
	tests := []struct {
		procs       int
		leaves      int
		power, tsta float64
	}{
		{1, 2, 1, 1e-6},
		{2, 2, 1, 1e-6},
		{4, 4, 0.5, 1e-6 + 1e-3},
	}
	for _, tt := range tests {
		m := h.Machine("host", p, tt.procs)
		if m.Processors() != tt.leaves || m.Leaves()[0].Power != tt.power || m.Root.Children[0].TStart != tt.tsta {
			t.Errorf("%d processes: %d leaves of power %g, node TStart %g; want %d, %g, %g", tt.procs,
				m.Processors(), m.Leaves()[0].Power, m.Root.Children[0].TStart, tt.leaves, tt.power, tt.tsta)
		}
	}
	if err := (Host{}).Check(); err == nil {
		t.Error("an empty host passes the check")
	}
}
