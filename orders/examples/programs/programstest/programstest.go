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
	"github.com/presage-dvm/presage/orders/measured"
	"github.com/presage-dvm/presage/orders/ordersched"
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
	for _, rule := range ordersched.All {
		for _, pin := range []bool{false, true} {
			runs(t, cmd, name, size, rule, pin, filepath.Join(dir, fmt.Sprintf("%s-%v.jsonl", rule, pin)))
		}
	}
	if code := cmd([]string{"-orders.mode", "fast"}, io.Discard, io.Discard); code != 2 {
		t.Errorf("a bad flag: exit code %d, want 2", code)
	}
}

// runs runs the program on 2 workers in checking mode by the rule, and
// checks its output and its measured schedule: every order in it, each
// with its stretches on the 2 workers.
func runs(t *testing.T, cmd Command, name, size string, rule ordersched.Name, pin bool, file string) {
	t.Helper()
	out := mustRun(t, cmd, "-n", size, "-orders.workers", "2", "-orders.check", "-orders.scheduler", string(rule),
		fmt.Sprintf("-orders.pin=%v", pin), "-orders.out", file)
	if !strings.HasPrefix(out, "OK "+name) {
		t.Errorf("%s, pinned %v: run mode printed %q, want OK", rule, pin, out)
	}
	ex := readFile(t, file, measured.Read)
	if ex.Scheduler != string(rule) || int64(len(ex.Schedule)) != ex.Orders || ex.Orders < 2 {
		t.Errorf("%s, pinned %v: the measured run says scheduler %q, %d orders with %d schedules", rule, pin, ex.Scheduler, ex.Orders, len(ex.Schedule))
	}
	for _, o := range ex.Schedule {
		if len(o.Stretches) == 0 || o.Proc == "" {
			t.Fatalf("%s, pinned %v: order %d has %d stretches, procedure %q", rule, pin, o.ID, len(o.Stretches), o.Proc)
		}
		for _, s := range o.Stretches {
			if s.Worker < 0 || s.Worker > 1 || s.End < s.Start {
				t.Fatalf("%s, pinned %v: order %d ran %+v", rule, pin, o.ID, s)
			}
		}
	}
}

// calibrate writes a calibration file in dir and returns its path.
func calibrate(t *testing.T, cmd Command, size, dir string) string {
	cal := filepath.Join(dir, "cal.csv")
	mustRun(t, cmd, "-n", size, "-orders.mode", "calibrate", "-orders.reps", "2", "-orders.machine", "test", "-orders.out", cal, "-orders.check")
	if rows := readFile(t, cal, calibration.ReadAll); len(rows) == 0 {
		t.Fatal("calibration wrote no row")
	}
	return cal
}

// record writes the trace in unit and checks it: its header's unit and
// runtime costs, and one node playing it in its work plus the runtime's
// cost of every order, and of at most every request.
func record(t *testing.T, cmd Command, size, cal, unit, trace string) {
	mustRun(t, cmd, "-n", size, "-orders.mode", "record", "-orders.unit", unit, "-orders.calibration", cal, "-orders.out", trace, "-orders.check")
	h, sum, requests := traceWork(t, trace, unit)
	if sum.Orders < 2 {
		t.Errorf("the trace has %d orders, want several", sum.Orders)
	}
	if !(h.OrderCost > 0 && h.WaitCost > 0) {
		t.Errorf("runtime costs %v per order, %v per wait; want the calibration's, > 0", h.OrderCost, h.WaitCost)
	}
	open := func() (ordertrace.Source, error) { return ordertrace.OpenFile(trace) }
	r, err := ordersim.Simulate(open, ordersim.Cluster{Nodes: 1}, ordersim.Options{Pin: true})
	if err != nil {
		t.Fatal(err)
	}
	least := sum.Work + float64(sum.Orders)*h.OrderCost
	most := least + float64(requests)*h.WaitCost
	if r.Makespan < least*(1-1e-9) || r.Makespan > most*(1+1e-9) {
		t.Errorf("one node plays the %s trace in %v, want from %v (work %v, %d orders) to %v (%d requests)",
			unit, r.Makespan, least, sum.Work, sum.Orders, most, requests)
	}
}

func find(t *testing.T, name string) programs.Program {
	p, ok := programs.Named(name)
	if !ok {
		t.Fatalf("no program %q", name)
	}
	return p
}

func mustRun(t *testing.T, cmd Command, args ...string) string {
	t.Helper()
	var stdout, stderr bytes.Buffer
	if code := cmd(args, &stdout, &stderr); code != 0 {
		t.Fatalf("%v: exit code %d: %s", args, code, stderr.String())
	}
	return stdout.String()
}

// readFile reads the file at path with read, which names it in errors.
func readFile[T any](t *testing.T, path string, read func(io.Reader, string) (T, error)) T {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	v, err := read(f, path)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// traceWork reads the trace, checks its unit and that it cannot deadlock,
// and returns its header, its work and span and its number of requests.
func traceWork(t *testing.T, path, unit string) (ordertrace.Header, workspan.Summary, int) {
	r, err := ordertrace.OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if u := r.Header().Unit; u != unit {
		t.Errorf("recorded in %s, the trace's unit is %q", unit, u)
	}
	src := &requestCounter{Source: r}
	s, err := workspan.Analyze(src, workspan.Network{})
	if err != nil {
		t.Fatal(err)
	}
	return r.Header(), s, src.requests
}

// requestCounter counts the requests of the orders read through it.
type requestCounter struct {
	ordertrace.Source
	requests int
}

func (c *requestCounter) Next() (*ordertrace.Order, error) {
	o, err := c.Source.Next()
	if o != nil {
		c.requests += len(o.Requests)
	}
	return o, err
}
