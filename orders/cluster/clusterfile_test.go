package cluster

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/presage-dvm/presage/orders"
)

// A cluster file gives run mode its worker processes and their cores,
// unless the configuration gives them.
func TestClusterFileSetsProcsAndCores(t *testing.T) {
	file := filepath.Join(t.TempDir(), "c.json")
	if err := os.WriteFile(file, []byte(`{"format":"presage-cluster","nodes":3,"cores":2,"latency":0.001,"bandwidth":1e8}`), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ procs, cores, wantProcs, wantCores int }{{0, 0, 3, 2}, {5, 0, 5, 2}, {0, 4, 3, 4}} {
		cfg, err := withCluster(orders.Config{Cluster: file, Procs: c.procs, Cores: c.cores})
		if err != nil || cfg.Procs != c.wantProcs || cfg.Cores != c.wantCores {
			t.Errorf("procs %d, cores %d with the file: %d, %d, %v; want %d, %d", c.procs, c.cores, cfg.Procs, cfg.Cores, err, c.wantProcs, c.wantCores)
		}
	}
	if err := os.WriteFile(file, []byte(`{"format":"presage-cluster","nodes":0}`), 0o644); err != nil {
		t.Fatal(err)
	}
	want := "orders: -orders.cluster: " + file + ": cluster of 0 nodes (expected at least 1)"
	if _, err := withCluster(orders.Config{Cluster: file}); err == nil || err.Error() != want {
		t.Errorf("a bad file: %v, want %s", err, want)
	}
}
