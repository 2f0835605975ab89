package main

import (
	"testing"

	"github.com/presage-dvm/presage/orders/examples/programs/programstest"
)

func TestModes(t *testing.T) { programstest.Modes(t, "pipeline", run) }

// TestProcs runs the program in 3 worker processes (-orders.procs 3).
func TestProcs(t *testing.T) { programstest.Procs(t, "pipeline", run, "4", false) }

// TestProcsLosingAWorker kills one of the 3 worker processes mid-run,
// once it has run orders for 0.1 s of CPU: at n = 64 the run took about
// a second on the host of 2026-12-02, and the last worker, which the
// scheduler fills last, ended with it before that in 1 run of 8 (and in
// a CI run); at 128 (about 2.7 s), in none of 32.
func TestProcsLosingAWorker(t *testing.T) { programstest.Procs(t, "pipeline", run, "128", true) }
