package fit

import (
	"math"
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
	r, err := Fit(start, []Param{Power, TStartNode}, res, 2000)
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
