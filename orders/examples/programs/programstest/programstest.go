// Package programstest runs an example command (orders/examples/*) in
// its three modes at a small size, for the commands' tests.
package programstest

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/presage-dvm/presage/orders/calibration"
	"github.com/presage-dvm/presage/orders/examples/programs"
	"github.com/presage-dvm/presage/sim/ordersim"
	"github.com/presage-dvm/presage/sim/ordertrace"
	"github.com/presage-dvm/presage/sim/workspan"
)

// Command is a command's main logic: arguments in, exit code out.
type Command func(args []string, stdout, stderr io.Writer) int

// Modes calibrates, records and runs the named program through its
// command at its small size, and checks what each mode produced: rows for
// every block, traces (in seconds and in ref units) that play on one node
// in their work, and "OK".
func Modes(t *testing.T, name string, cmd Command) {
	p := find(t, name)
	dir := t.TempDir()
	size := fmt.Sprint(p.Small)
	cal := calibrate(t, cmd, size, dir)
	for _, unit := range []string{"s", "ref"} {
		record(t, cmd, size, cal, unit, filepath.Join(dir, unit+".jsonl"))
	}
	out := mustRun(t, cmd, "-n", size, "-orders.workers", "2", "-orders.check")
	if !strings.HasPrefix(out, "OK "+name) {
		t.Errorf("run mode printed %q, want OK", out)
	}
	if code := cmd([]string{"-orders.mode", "fast"}, io.Discard, io.Discard); code != 2 {
		t.Errorf("a bad flag: exit code %d, want 2", code)
	}
}

// calibrate writes a calibration file in dir and returns its path.
func calibrate(t *testing.T, cmd Command, size, dir string) string {
	cal := filepath.Join(dir, "cal.csv")
	mustRun(t, cmd, "-n", size, "-orders.mode", "calibrate", "-orders.reps", "2", "-orders.machine", "test", "-orders.out", cal, "-orders.check")
	if rows := readRows(t, cal); len(rows) == 0 {
		t.Fatal("calibration wrote no row")
	}
	return cal
}

// record writes the trace in unit and checks it: its header's unit, and
// one node playing it in its work.
func record(t *testing.T, cmd Command, size, cal, unit, trace string) {
	mustRun(t, cmd, "-n", size, "-orders.mode", "record", "-orders.unit", unit, "-orders.calibration", cal, "-orders.out", trace, "-orders.check")
	orders, work := traceWork(t, trace, unit)
	if orders < 2 {
		t.Errorf("the trace has %d orders, want several", orders)
	}
	open := func() (ordertrace.Source, error) { return ordertrace.OpenFile(trace) }
	r, err := ordersim.Simulate(open, ordersim.Cluster{Nodes: 1}, ordersim.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if d := r.Makespan - work; d > 1e-9*work || d < -1e-9*work {
		t.Errorf("one node plays the %s trace in %v, its work is %v", unit, r.Makespan, work)
	}
}

func find(t *testing.T, name string) programs.Program {
	for _, p := range programs.All() {
		if p.Name == name {
			return p
		}
	}
	t.Fatalf("no program %q", name)
	return programs.Program{}
}

func mustRun(t *testing.T, cmd Command, args ...string) string {
	t.Helper()
	var stdout, stderr bytes.Buffer
	if code := cmd(args, &stdout, &stderr); code != 0 {
		t.Fatalf("%v: exit code %d: %s", args, code, stderr.String())
	}
	return stdout.String()
}

func readRows(t *testing.T, path string) []calibration.Row {
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := calibration.ReadAll(f, path)
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

// traceWork reads the trace, checks its unit and that it cannot deadlock,
// and returns its number of orders and work.
func traceWork(t *testing.T, path, unit string) (int64, float64) {
	r, err := ordertrace.OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if u := r.Header().Unit; u != unit {
		t.Errorf("recorded in %s, the trace's unit is %q", unit, u)
	}
	s, err := workspan.Analyze(r, workspan.Network{})
	if err != nil {
		t.Fatal(err)
	}
	return s.Orders, s.Work
}
