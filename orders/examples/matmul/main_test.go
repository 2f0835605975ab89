package main

import (
	"testing"

	"github.com/presage-dvm/presage/orders/examples/programs/programstest"
)

func TestModes(t *testing.T) { programstest.Modes(t, "matmul", run) }

// TestProcs runs the program in 3 worker processes (-orders.procs 3).
func TestProcs(t *testing.T) { programstest.Procs(t, "matmul", run, "128", false) }

// TestProcsLosingAWorker kills one of the 3 worker processes mid-run,
// once it has run orders for 0.1 s of CPU: at n = 640 the run took about
// 0.3 s on the host of 2026-12-02, and the victim ended with it before
// that in 3 runs of 16; at 1024 (0.7–1.8 s), in none of 24.
func TestProcsLosingAWorker(t *testing.T) { programstest.Procs(t, "matmul", run, "1024", true) }
