package orders

import (
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/presage-dvm/presage/sim/machine"
)

func TestFitLineFindsLatencyAndBandwidth(t *testing.T) {
	const latency, bandwidth = 2e-3, 12.5e6 // 2 ms, 100 Mbit/s
	var ps []machine.MessagePoint
	for _, b := range networkSizes {
		ps = append(ps, machine.MessagePoint{Bytes: b, Seconds: latency + float64(b)/bandwidth})
	}
	l, bw, worst := fitLine(ps)
	if math.Abs(l-latency) > 1e-12 || math.Abs(bw-bandwidth)/bandwidth > 1e-9 || worst > 1e-9 {
		t.Errorf("fit of an exact line: latency %g, bandwidth %g, worst %g; want %g, %g, 0", l, bw, worst, latency, bandwidth)
	}
	ps[len(ps)-1].Seconds *= 2 // a slow large message
	if _, _, worst := fitLine(ps); worst < 0.2 {
		t.Errorf("a point twice the line's time: worst %g, want it reported", worst)
	}
}

// A cluster file gives run mode its worker processes and their cores,
// unless the configuration gives them.
func TestClusterFileSetsProcsAndCores(t *testing.T) {
	file := filepath.Join(t.TempDir(), "c.json")
	if err := os.WriteFile(file, []byte(`{"format":"presage-cluster","nodes":3,"cores":2,"latency":0.001,"bandwidth":1e8}`), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ procs, cores, wantProcs, wantCores int }{{0, 0, 3, 2}, {5, 0, 5, 2}, {0, 4, 3, 4}} {
		cfg, err := Config{Cluster: file, Procs: c.procs, Cores: c.cores}.withCluster()
		if err != nil || cfg.Procs != c.wantProcs || cfg.Cores != c.wantCores {
			t.Errorf("procs %d, cores %d with the file: %d, %d, %v; want %d, %d", c.procs, c.cores, cfg.Procs, cfg.Cores, err, c.wantProcs, c.wantCores)
		}
	}
	if err := os.WriteFile(file, []byte(`{"format":"presage-cluster","nodes":0}`), 0o644); err != nil {
		t.Fatal(err)
	}
	want := "orders: -orders.cluster: " + file + ": cluster of 0 nodes (expected at least 1)"
	if _, err := (Config{Cluster: file}).withCluster(); err == nil || err.Error() != want {
		t.Errorf("a bad file: %v, want %s", err, want)
	}
}
