package main

import (
	"io"
	"testing"

	"github.com/presage-dvm/presage/orders/examples/programs"
	"github.com/presage-dvm/presage/orders/examples/programs/programstest"
)

func TestModes(t *testing.T) { programstest.Modes(t, "cholesky", run) }

// TestProcs runs the program in 3 worker processes (-orders.procs 3).
func TestProcs(t *testing.T) { programstest.Procs(t, "cholesky", run, "256", false) }

// TestProcsLosingAWorker kills one of the 3 worker processes mid-run.
func TestProcsLosingAWorker(t *testing.T) { programstest.Procs(t, "cholesky", run, "1024", true) }

// fine is the command of the factorization by small tiles (programs.CholeskyFine).
func fine(args []string, stdout, stderr io.Writer) int {
	return programs.Command(programs.CholeskyFine, args, stdout, stderr)
}

// TestFineProcs runs the fine-grained factorization in 3 worker processes,
// and with one of them killed mid-run.
func TestFineProcs(t *testing.T) { programstest.Procs(t, "cholesky-fine", fine, "256", false) }

func TestFineProcsLosingAWorker(t *testing.T) {
	programstest.Procs(t, "cholesky-fine", fine, "1024", true)
}
