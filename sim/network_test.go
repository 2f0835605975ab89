package sim

import (
	"math"
	"strings"
	"testing"

	"github.com/presage-dvm/presage/internal/golden"
	"github.com/presage-dvm/presage/sim/network"
	"github.com/presage-dvm/presage/sim/result"
)

func TestNetworkNames(t *testing.T) {
	_, err := predictNet(t, "jac1d.ptr", "Predictor", []int{2, 2}, "torus")
	if err == nil || !strings.Contains(err.Error(), "cluster, bus, mesh") {
		t.Fatalf("unknown network: error %v, want one listing cluster, bus, mesh", err)
	}
}

// predictNet runs a shared trace on a shared machine under a network.
func predictNet(t *testing.T, trace, machineName string, grid []int, net string) (*result.Run, error) {
	t.Helper()
	prog := compileFile(t, golden.Path(t, "traces", trace))
	return Simulate(prog, loadMachine(t, machineName), result.Config{Grid: grid, Network: net}, Options{TraceFile: trace})
}

// TestNetworksEndToEnd predicts jac1d on 4x4 under the three networks: every
// run succeeds, records its network, and the models give different
// communication times.
func TestNetworksEndToEnd(t *testing.T) {
	comm := map[string]float64{}
	for _, n := range network.Names {
		run, err := predictNet(t, "jac1d.ptr", "Predictor", []int{4, 4}, n)
		if err != nil {
			t.Fatalf("%s: %v", n, err)
		}
		if run.Config.Network != n {
			t.Errorf("%s: Config.Network = %q", n, run.Config.Network)
		}
		v := run.Intervals[0].Values
		for c, x := range v {
			if math.IsNaN(x) || math.IsInf(x, 0) {
				t.Errorf("%s: %s = %v", n, result.Char(c), x)
			}
		}
		if v[result.Communication] <= 0 || v[result.WaitReduction] <= 0 {
			t.Errorf("%s: no communication (%v) or no reduction wait (%v)", n, v[result.Communication], v[result.WaitReduction])
		}
		comm[n] = v[result.Communication]
	}
	if comm["bus"] == comm["cluster"] || comm["mesh"] == comm["cluster"] {
		t.Errorf("the models agree on communication: %v", comm)
	}
}

// TestBusAgainstCluster compares bus and cluster on a flat machine whose
// single cluster has one channel and the bus's Ts and Tb
// (Predictor-flat1024). There the cluster model also sends one message at a
// time, so:
//   - a shadow exchange (all senders synchronised, channel free) lasts the
//     sum over its messages of Ts + bytes·Tb under both models: Wait_shadow
//     must agree;
//   - a reduction sends, under the cluster model, a gather and a broadcast
//     message per owning processor, 2·(N−1) messages, while the bus
//     gathers only one section of the distributed dimensions, s + N − 2 ≤
//     2·(N−1) messages: Wait_reduction(bus) ≤ Wait_reduction(cluster),
//     with equality when the loop is distributed over every dimension
//     (s = N).
//
// So the bus's communication time is bounded by the cluster's here.
func TestBusAgainstCluster(t *testing.T) {
	for _, g := range [][]int{{4}, {2, 2}, {4, 4}} {
		vals := map[string]result.Values{}
		for _, n := range []string{"cluster", "bus"} {
			run, err := predictNet(t, "jac1d.ptr", "Predictor-flat1024", g, n)
			if err != nil {
				t.Fatal(err)
			}
			vals[n] = run.Intervals[0].Values
		}
		c, b := vals["cluster"], vals["bus"]
		gs := result.GridString(g)
		if math.Abs(b[result.WaitShadow]-c[result.WaitShadow]) > 1e-9*c[result.WaitShadow] || c[result.WaitShadow] == 0 {
			t.Errorf("%s: Wait_shadow bus %v, cluster %v: want equal and non-zero", gs, b[result.WaitShadow], c[result.WaitShadow])
		}
		if b[result.WaitReduction] > c[result.WaitReduction]*(1+1e-12) {
			t.Errorf("%s: Wait_reduction bus %v > cluster %v", gs, b[result.WaitReduction], c[result.WaitReduction])
		}
		if b[result.Communication] > c[result.Communication]*(1+1e-12) {
			t.Errorf("%s: Communication bus %v > cluster %v", gs, b[result.Communication], c[result.Communication])
		}
	}
}
