package orders

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/presage-dvm/presage/orders/calibration"
	"github.com/presage-dvm/presage/orders/measured"
	"github.com/presage-dvm/presage/orders/tracefile"
	"github.com/presage-dvm/presage/sim/ordertrace"
	"github.com/presage-dvm/presage/sim/workspan"
)

// sum adds the numbers of a slice by halves down to leaf; every leaf's
// addition is a block of cost n.
var sum *Procedure1[[]float64, float64]

func init() {
	sum = Proc("sum", func(c *Ctx, xs []float64) (float64, error) {
		if len(xs) <= 4 {
			var s float64
			c.Block("add", Cost{Alpha: []float64{float64(len(xs))}, F: float64(len(xs))},
				func() {
					for _, x := range xs {
						s += x
					}
				},
				func() {})
			return s, nil
		}
		left := Make(c, sum, xs[:len(xs)/2])
		right := Make(c, sum, xs[len(xs)/2:])
		l, r, err := both(c, left, right)
		return l + r, err
	})
}

// both gets the results of two handles, or the first failure.
func both[R any](c *Ctx, a, b *Handle[R]) (R, R, error) {
	x, err := a.Get(c)
	if err != nil {
		return x, x, err
	}
	y, err := b.Get(c)
	return x, y, err
}

func numbers(n int) []float64 {
	xs := make([]float64, n)
	for i := range xs {
		xs[i] = float64(i + 1)
	}
	return xs
}

func TestRunComputes(t *testing.T) {
	for _, workers := range []int{1, 2, 5} {
		got, rep, err := Main(Config{Workers: workers}, sum, numbers(100))
		if err != nil {
			t.Fatal(err)
		}
		if got != 5050 || rep.Workers != workers || rep.Mode != ModeRun {
			t.Errorf("%d workers: sum %v, report %+v; want 5050", workers, got, rep)
		}
		// 100 numbers split down to 4 or fewer: 32 leaves, 63 orders.
		if rep.Orders != 63 {
			t.Errorf("%d workers: %d orders, want 63", workers, rep.Orders)
		}
	}
}

// nap sleeps ms milliseconds and returns ms: an order that holds its
// worker a known time.
var nap = Proc("nap", func(c *Ctx, ms int) (int, error) {
	time.Sleep(time.Duration(ms) * time.Millisecond)
	return ms, nil
})

// TestRunMeasures checks what run mode measures and writes: every worker's
// busy, waiting and idle time add up to the makespan, the orders started
// on them to the orders made, and a main order that sleeps 20 ms while
// its one child sleeps 30 ms on the other worker keeps worker 0 busy at
// least 20 ms and busy or waiting at least 30 ms.
func TestRunMeasures(t *testing.T) {
	main := Proc("main", func(c *Ctx, ms int) (int, error) {
		kid := Make(c, nap, 30)
		time.Sleep(time.Duration(ms) * time.Millisecond)
		return kid.Get(c)
	})
	var out bytes.Buffer
	_, rep, err := Main(Config{Workers: 2, Output: &out, Program: "naps"}, main, 20)
	if err != nil {
		t.Fatal(err)
	}
	run, err := measured.Read(&out, "naps.jsonl") // checks the sums
	if err != nil {
		t.Fatal(err)
	}
	if run.Program != "naps" || run.Orders != 2 || len(run.Workers) != 2 || run.Makespan != rep.Elapsed.Seconds() {
		t.Fatalf("measured %+v (report %+v)", run, rep)
	}
	w0, w1 := run.Workers[0], run.Workers[1]
	if w0.Orders != 1 || w1.Orders != 1 {
		t.Errorf("orders per worker %d, %d; want 1, 1", w0.Orders, w1.Orders)
	}
	// Sleeps last at least what they ask; the scheduler may add a little.
	if w0.Busy < 0.020 || w1.Busy < 0.030 || w0.Busy+w0.Waiting < 0.030 {
		t.Errorf("worker 0 busy %.4f s waiting %.4f s, worker 1 busy %.4f s; want ≥ 0.020, ≥ 0.030 together, ≥ 0.030",
			w0.Busy, w0.Waiting, w1.Busy)
	}
}

// TestRunMeasuresOrdersBackToBack checks a worker that goes from one
// order to the next without stopping: on one worker, a maker gets the
// last of its three children of 10 ms first, so that they run one after
// the other while it waits; they keep the worker busy at least 30 ms, and
// its times still add up to the makespan.
func TestRunMeasuresOrdersBackToBack(t *testing.T) {
	main := Proc("main", func(c *Ctx, ms int) (int, error) {
		kids := []*Handle[int]{Make(c, nap, ms), Make(c, nap, ms), Make(c, nap, ms)}
		sum := 0
		for _, k := range slices.Backward(kids) {
			x, err := k.Get(c)
			if err != nil {
				return 0, err
			}
			sum += x
		}
		return sum, nil
	})
	var out bytes.Buffer
	if _, _, err := Main(Config{Workers: 1, Output: &out, Program: "naps"}, main, 10); err != nil {
		t.Fatal(err)
	}
	run, err := measured.Read(&out, "naps.jsonl") // checks the sums
	if err != nil {
		t.Fatal(err)
	}
	w := run.Workers[0]
	if w.Orders != 4 || w.Busy < 0.030 || w.Busy > run.Makespan {
		t.Errorf("worker 0: %d orders, busy %.4f s of %.4f s; want 4 orders, busy at least 0.030 s", w.Orders, w.Busy, run.Makespan)
	}
}

// TestRunKeepsToItsWorkers checks that no more orders run than there are
// workers, and that, pinned, an order resumes on the worker it started on.
func TestRunKeepsToItsWorkers(t *testing.T) {
	var running, peak atomic.Int32
	var moved atomic.Bool
	var tree *Procedure1[int, int]
	tree = Proc("tree", func(c *Ctx, depth int) (int, error) {
		if n := running.Add(1); n > peak.Load() {
			peak.Store(n)
		}
		for range 1000 {
			_ = math.Sqrt(float64(depth))
		}
		running.Add(-1)
		if depth == 0 {
			return 1, nil
		}
		slot := c.ord.slot
		a, b := Make(c, tree, depth-1), Make(c, tree, depth-1)
		x, y, err := both(c, a, b)
		if c.ord.slot != slot {
			moved.Store(true)
		}
		return x + y, err
	})
	got, _, err := Main(Config{Workers: 3, Pin: true}, tree, 8)
	if err != nil || got != 256 {
		t.Fatalf("tree: %v, %v; want 256", got, err)
	}
	if peak.Load() > 3 || moved.Load() {
		t.Errorf("peak of %d running orders on 3 workers, moved %v", peak.Load(), moved.Load())
	}
}

func TestPanicsReachMain(t *testing.T) {
	boom := Proc("boom", func(c *Ctx, x int) (int, error) { panic("boom") })
	caller := Proc("caller", func(c *Ctx, x int) (int, error) { return Make(c, boom, x).Get(c) })
	forgetful := Proc("forgetful", func(c *Ctx, x int) (int, error) { Make(c, boom, x); return 0, nil })
	cal := calibration.Constants{}
	for _, mode := range []Mode{ModeRun, ModeRecord} {
		for _, p := range []*Procedure1[int, int]{caller, forgetful} {
			_, _, err := Main(Config{Mode: mode, Constants: cal, Output: io.Discard}, p, 1)
			var pe *PanicError
			if !errors.As(err, &pe) || pe.Value != "boom" {
				t.Errorf("%s, %s: error %v, want the order's panic", mode, p.name, err)
			}
		}
	}
}

// prices make every "add" block cost 1 s per number.
var prices = calibration.Constants{"add": calibration.Flat(1)}

func record(t *testing.T, p *Procedure1[[]float64, float64], xs []float64) (*Summary, []*ordertrace.Order, []byte) {
	t.Helper()
	return recordTrace(t, p, xs, prices)
}

// recordTrace records p on arg with the given prices and reads the trace
// back, checked.
func recordTrace[A, R any](t *testing.T, p *Procedure1[A, R], arg A, prices calibration.Constants) (*Summary, []*ordertrace.Order, []byte) {
	t.Helper()
	var buf bytes.Buffer
	_, rep, err := Main(Config{Mode: ModeRecord, Constants: prices, Machine: "m", Output: &buf}, p, arg)
	if err != nil {
		t.Fatal(err)
	}
	return rep, readTrace(t, buf.Bytes()), buf.Bytes()
}

// readTrace reads a recorded trace back, checked.
func readTrace(t *testing.T, trace []byte) []*ordertrace.Order {
	t.Helper()
	r, err := ordertrace.NewReader(bytes.NewReader(trace), "trace")
	if err != nil {
		t.Fatal(err)
	}
	all, err := ordertrace.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	return all
}

func TestRecordPricesBlocks(t *testing.T) {
	rep, all, _ := record(t, sum, numbers(16))
	// 16 numbers: 4 leaves of 4, 7 orders; the leaves' blocks cost 4 s
	// each, the rest is microseconds of unmarked code.
	if len(all) != 7 || rep.Orders != 7 || rep.Machine != "m" {
		t.Fatalf("%d orders, report %+v; want 7 on m", len(all), rep)
	}
	var blocks float64
	for _, o := range all {
		for _, s := range o.Segments {
			if s.Block == "add" {
				blocks += s.Dur
			}
		}
	}
	if blocks != 16 || rep.Work < 16 || rep.Work > 16.01 {
		t.Errorf("blocks priced at %v s, work %v; want 16 and a little more", blocks, rep.Work)
	}
	// The trace's work and span: the leaves run in parallel.
	s, err := workspan.Analyze(sliceSource(all), workspan.Network{})
	if err != nil {
		t.Fatal(err)
	}
	if s.Span < 4 || s.Span > 4.01 {
		t.Errorf("span %v, want 4 and a little more", s.Span)
	}
}

// TestRenumber: a depth-first recording of main (1) making A (2) at 0
// and B (4) at 1, A making C (3) at 5, is written renumbered by the
// moments an as-soon-as-possible run makes them: main 0, A 0, B 1, C 5.
func TestRenumber(t *testing.T) {
	order := func(id, parent int64, madeAt float64, requests ...int64) *ordertrace.Order {
		o := &ordertrace.Order{ID: id, Parent: parent, Proc: "p", MadeAt: madeAt, Duration: 10, Results: []ordertrace.Result{{At: 10}}}
		for _, r := range requests {
			o.Requests = append(o.Requests, ordertrace.Request{Order: r, At: 9})
		}
		return o
	}
	for _, toFile := range []bool{false, true} {
		rec := []*ordertrace.Order{order(1, 0, 0, 2, 4), order(2, 1, 0, 3), order(3, 2, 5), order(4, 1, 1)}
		sp := &spill{}
		defer sp.close()
		for _, asap := range []float64{0, 0, 5, 1} {
			sp.made(asap)
		}
		for n, i := range []int{2, 1, 3, 0} { // in the order they end
			if toFile && n == 2 { // as if past memOrders: two in memory, two after
				sp.spillFile()
			}
			sp.ended(rec[i])
		}
		if got := sp.f != nil; got != toFile {
			t.Fatalf("spilled to a file: %v, want %v", got, toFile)
		}
		checkRenumbered(t, sp)
	}
}

// checkRenumbered writes sp's orders and checks them against
// TestRenumber's expectation.
func checkRenumbered(t *testing.T, sp *spill) {
	t.Helper()
	buf, err := tracefile.AppendHeader(nil, tracefile.Header{Program: "p", Orders: 4})
	if err != nil {
		t.Fatal(err)
	}
	out := bytes.NewBuffer(buf)
	if err := sp.writeTo(out); err != nil {
		t.Fatal(err)
	}
	text := out.Bytes()
	r, err := ordertrace.NewReader(bytes.NewReader(text), "renumbered") // with every check of docs/orders.md
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ordertrace.ReadAll(r); err != nil {
		t.Fatal(err)
	}
	r, err = ordertrace.NewReader(bytes.NewReader(text), "renumbered")
	if err != nil {
		t.Fatal(err)
	}
	wantParents := []int64{0, 1, 1, 2}
	wantRequests := [][]int64{{2, 3}, {4}, nil, nil}
	for i := range wantParents {
		o, err := r.Next()
		if err != nil {
			t.Fatal(err)
		}
		var reqs []int64
		for _, r := range o.Requests {
			reqs = append(reqs, r.Order)
		}
		if o.ID != int64(i+1) || o.Parent != wantParents[i] || fmt.Sprint(reqs) != fmt.Sprint(wantRequests[i]) {
			t.Errorf("order %d: id %d, parent %d, requests %v; want parent %d, requests %v", i+1, o.ID, o.Parent, reqs, wantParents[i], wantRequests[i])
		}
	}
}

type slice struct{ orders []*ordertrace.Order }

func sliceSource(orders []*ordertrace.Order) *slice { return &slice{orders} }

func (s *slice) Next() (*ordertrace.Order, error) {
	if len(s.orders) == 0 {
		return nil, io.EOF
	}
	o := s.orders[0]
	s.orders = s.orders[1:]
	return o, nil
}

// TestRecordInRefUnits: with the reference taking 0.5 s, a second is 2
// units: the blocks of 16 numbers cost 32.
func TestRecordInRefUnits(t *testing.T) {
	var buf bytes.Buffer
	cfg := Config{Mode: ModeRecord, Unit: "ref", Constants: calibration.Constants{"add": calibration.Flat(1), RefBlock: calibration.Flat(0.5)}, Output: &buf}
	_, rep, err := Main(cfg, sum, numbers(16))
	if err != nil {
		t.Fatal(err)
	}
	if rep.Work < 32 || rep.Work > 32.01 || !strings.Contains(buf.String(), `"unit":"ref"`) {
		t.Errorf("work %v in %.80s; want 32 units of ref", rep.Work, buf.String())
	}
	cfg.Constants = calibration.Constants{"add": calibration.Flat(1)}
	if _, _, err := Main(cfg, sum, numbers(16)); err == nil || !strings.Contains(err.Error(), "unit ref needs the reference's time") {
		t.Errorf("no reference: error %v", err)
	}
	cfg.Unit = "hours"
	if _, _, err := Main(cfg, sum, numbers(16)); err == nil || !strings.Contains(err.Error(), `unknown unit "hours" (expected s or ref)`) {
		t.Errorf("unit hours: error %v", err)
	}
}

func TestRecordNeedsEveryBlock(t *testing.T) {
	_, _, err := Main(Config{Mode: ModeRecord, Constants: calibration.Constants{"other": calibration.Flat(1)}, Output: io.Discard}, sum, numbers(8))
	if err == nil || !strings.Contains(err.Error(), `block "add" is not in the calibration`) {
		t.Errorf("error %v, want the missing block", err)
	}
}

func TestCalibrate(t *testing.T) {
	var buf bytes.Buffer
	cfg := Config{Mode: ModeCalibrate, Reps: 3, MaxReps: 3, Machine: "m", Output: &buf, Tests: []TestCase{
		Test("eight", func(c *Ctx) error { _, err := Make(c, sum, numbers(8)).Get(c); return err }),
		Test("three", func(c *Ctx) error { _, err := Make(c, sum, numbers(3)).Get(c); return err }),
	}}
	_, rep, err := Main(cfg, sum, nil)
	if err != nil {
		t.Fatal(err)
	}
	rows, err := calibration.ReadAll(&buf, "calibration")
	if err != nil {
		t.Fatal(err)
	}
	// Each repetition on each CPU: the reference, the probe, two blocks
	// of 4 numbers, one of 3; and each repetition, the runtime's two
	// costs.
	cpus := max(len(calibrationCPUs()), 1)
	if n := 5*3*cpus + 2*3; len(rows) != n || rep.Rows != n {
		t.Fatalf("%d rows, report %+v; want %d", len(rows), rep, n)
	}
	reps := map[string][]int{}
	for _, r := range rows {
		key := fmt.Sprint(r.Block, r.F)
		reps[key] = append(reps[key], r.Rep)
		if r.Machine != "m" || r.Seconds <= 0 {
			t.Errorf("row %+v", r)
		}
	}
	count := func(n int) []int { // 0, 1, …, n-1
		out := make([]int, n)
		for i := range out {
			out[i] = i
		}
		return out
	}
	want := map[string][]int{"ref1": count(3 * cpus), ProbeBlock + fmt.Sprint(float64(probeMultiplyAdds)): count(3 * cpus), "add4": count(6 * cpus), "add3": count(3 * cpus), OrderBlock + "1": count(3), WaitBlock + "1": count(3)}
	if fmt.Sprint(reps) != fmt.Sprint(want) {
		t.Errorf("repetitions by block and f: %v, want %v", reps, want)
	}
}

func TestFlags(t *testing.T) {
	var cfg Config
	fs := flag.NewFlagSet("test", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	cfg.AddFlags(fs)
	err := fs.Parse([]string{"-orders.mode", "record", "-orders.workers", "3", "-orders.reps", "7", "-orders.unit", "ref", "-orders.pin", "-orders.scheduler", "locality",
		"-orders.calibration", "c.csv", "-orders.out", "t.jsonl", "-orders.machine", "m", "-orders.hugepages", "-1"})
	if err != nil {
		t.Fatal(err)
	}
	want := Config{Mode: ModeRecord, Workers: 3, Reps: 7, Calibration: "c.csv", Out: "t.jsonl", Machine: "m", HugePages: -1}
	if cfg.Unit != "ref" || !cfg.Pin || cfg.Scheduler != "locality" || cfg.Mode != want.Mode || cfg.Workers != 3 || cfg.Reps != 7 || cfg.Calibration != "c.csv" || cfg.Out != "t.jsonl" || cfg.Machine != "m" || cfg.HugePages != -1 {
		t.Errorf("flags gave %+v, want %+v", cfg, want)
	}
	if err := fs.Parse([]string{"-orders.mode", "fast"}); err == nil {
		t.Error("mode fast: no error")
	}
}
