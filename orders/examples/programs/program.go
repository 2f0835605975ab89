// Package programs holds the example programs of package orders — a
// blocked matrix product, a merge sort, a pipeline and a tiled Cholesky
// factorization, by large tiles and by small ones — as values that the commands in orders/examples/* and
// the reality check (orders/examples/reality) run in any mode. Each
// verifies its answer in run mode and has calibration tests that run
// every block it marks.
package programs

import (
	"cmp"
	"errors"
	"flag"
	"fmt"
	"io"

	"github.com/presage-dvm/presage/orders"
)

// Program is an example program.
type Program struct {
	Name string
	// Size is the default problem size, Small one for quick tests, and
	// Medium one whose run lasts tens of milliseconds: the reality
	// check's smaller size (a run of a millisecond or two, as Small's,
	// is within the noise of a shared machine).
	Size, Small, Medium int
	// Tests are its calibration tests for a problem of the given size.
	Tests func(size int) []orders.TestCase
	// Run runs it in cfg's mode on a problem of the given size; in run
	// mode it checks the answer and returns ErrWrong when it is wrong.
	Run func(cfg orders.Config, size int) (*orders.Summary, error)
}

// Named returns the program called name, and whether there is one.
func Named(name string) (Program, bool) {
	for _, p := range All() {
		if p.Name == name {
			return p, true
		}
	}
	return Program{}, false
}

// ErrWrong is returned when a program's answer is wrong.
var ErrWrong = errors.New("wrong answer")

// All lists the programs.
func All() []Program { return []Program{Matmul, Sort, Pipeline, Cholesky, CholeskyFine} }

// Command is the main function of p's command: it parses the -orders.*
// flags and -n (the size), runs p (with its calibration tests in
// calibrate mode) and prints what it did, "OK" when it verified its
// answer. It returns the exit code.
func Command(p Program, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet(p.Name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	var cfg orders.Config
	cfg.AddFlags(fs)
	size := fs.Int("n", p.Size, "problem size")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	cfg.Program = p.Name
	if cfg.Mode == orders.ModeCalibrate {
		// Only calibrate mode runs the tests: their inputs (matmul's
		// strips, sort's sorted halves: tens of MB) would cost every
		// other run, and each worker process, its start.
		cfg.Tests = p.Tests(*size)
	}
	rep, err := p.Run(cfg, *size)
	if err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", p.Name, err)
		return 1
	}
	switch rep.Mode {
	case orders.ModeRun:
		fmt.Fprintf(stdout, "OK %s n=%d: %d orders on %d workers in %v\n", p.Name, *size, rep.Orders, rep.Workers, rep.Elapsed)
	case orders.ModeCalibrate:
		fmt.Fprintf(stderr, "%s: %d calibration rows of machine %s in %v\n", p.Name, rep.Rows, rep.Machine, rep.Elapsed)
	case orders.ModeRecord:
		fmt.Fprintf(stderr, "%s n=%d: %d orders recorded in %v, work %.4gs\n", p.Name, *size, rep.Orders, rep.Elapsed, rep.Work)
	case orders.ModeNetwork:
		n := rep.Network
		fmt.Fprintf(stderr, "network of %d workers: %d message sizes timed; as a line, --latency %.3g --bandwidth %.3g (a point at most %.0f%% off it)%s; the runtime there %.0f µs per order, %.0f µs per wait\n",
			n.Nodes, len(n.Points), n.Latency, n.Bandwidth, 100*n.Worst, relayShare(n), 1e6*n.OrderCost, 1e6*n.WaitCost)
	}
	return 0
}

// relayShare says how much of an empty message's time holds the
// coordinator's server (orders.NetworkFit.Relay), when it was timed.
func relayShare(n *orders.NetworkFit) string {
	if len(n.Relay) == 0 || n.Points[0].Seconds <= 0 {
		return ""
	}
	return fmt.Sprintf("; the server holds %.0f%% of an empty message's %.0f µs", 100*n.Relay[0].Seconds/n.Points[0].Seconds, 1e6*n.Points[0].Seconds)
}

// check returns ErrWrong, with what was wrong, in run mode when ok is
// false.
func check(cfg orders.Config, ok bool, format string, args ...any) error {
	if ok || cmp.Or(cfg.Mode, orders.ModeRun) != orders.ModeRun {
		return nil
	}
	return fmt.Errorf("%w: "+format, append([]any{ErrWrong}, args...)...)
}
