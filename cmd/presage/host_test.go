package main

import (
	"testing"

	"github.com/presage-dvm/presage/internal/golden"
)

// TestHostFile reads a host from a machine file: the root cluster's
// children are its nodes, their processors its cores.
func TestHostFile(t *testing.T) {
	h, described, err := hostFlags{HostFile: golden.Path(t, "machines", "Predictor.par")}.host()
	if err != nil || !described {
		t.Fatalf("host: %v, described %v", err, described)
	}
	if h.Nodes != 512 || h.CoresPerNode != 2 {
		t.Errorf("Predictor.par as a host: %d nodes of %d cores, want 512 of 2", h.Nodes, h.CoresPerNode)
	}
}
