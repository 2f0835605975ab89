package main

import (
	"testing"

	"github.com/presage-dvm/presage/orders/examples/programs/programstest"
)

func TestModes(t *testing.T) { programstest.Modes(t, "pipeline", run) }

// TestProcs runs the program in 3 worker processes (-orders.procs 3).
func TestProcs(t *testing.T) { programstest.Procs(t, "pipeline", run, "4", false) }

// TestProcsLosingAWorker kills one of the 3 worker processes mid-run.
func TestProcsLosingAWorker(t *testing.T) { programstest.Procs(t, "pipeline", run, "64", true) }
