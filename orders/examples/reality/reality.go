// Package reality is the reality check of the orders-based method (seed
// 004, "checked against reality"): it runs an example program for real on
// this machine with a number of workers, and compares the makespan it
// measures with the one sim/ordersim predicts from the program's
// calibration and recorded trace for a cluster of as many one-core nodes.
// docs/orders-sim.md describes the procedure.
package reality

import (
	"bytes"
	"cmp"
	"fmt"
	"math"
	"runtime"
	"slices"

	"github.com/presage-dvm/presage/orders"
	"github.com/presage-dvm/presage/orders/calibration"
	"github.com/presage-dvm/presage/orders/examples/programs"
	"github.com/presage-dvm/presage/sim/ordersim"
	"github.com/presage-dvm/presage/sim/ordertrace"
)

// Figure is the measured and the predicted makespan of a program on a
// number of workers, in seconds.
type Figure struct {
	Program  string
	Size     int
	Workers  int
	Migrate  bool
	Measured float64 // the best of Options.Runs runs
	// Spread is how far the slowest of those runs is from the best, in
	// proportion: how well the machine repeats itself.
	Spread    float64
	Predicted float64 // blocks priced by BestConstants
	// PredictedMean prices blocks by the seed's c̄, the mean of every
	// calibration run, which a loaded machine's slow runs inflate.
	PredictedMean float64
	// Capacity is the smaller of Capacity(Workers) just before and just
	// after the runs: how many cores the machine gave meanwhile.
	Capacity float64
}

// Error is the prediction's relative error: (predicted − measured) / measured.
func (f Figure) Error() float64 { return (f.Predicted - f.Measured) / f.Measured }

func (f Figure) String() string {
	how := ""
	if f.Migrate {
		how = ", migrating"
	}
	return fmt.Sprintf("%s n=%d, %d workers%s: measured %.1f ms, predicted %.1f ms (%+.1f%%; by the mean c̄ %.1f ms; runs spread %.0f%%; capacity %.2f cores)",
		f.Program, f.Size, f.Workers, how, 1e3*f.Measured, 1e3*f.Predicted, 100*f.Error(), 1e3*f.PredictedMean, 100*f.Spread, f.Capacity)
}

// Median returns the figure of median error among figs (the lower of the
// two middle ones for an even count). figs must not be empty.
func Median(figs []Figure) Figure {
	sorted := slices.SortedFunc(slices.Values(figs), func(a, b Figure) int { return cmp.Compare(a.Error(), b.Error()) })
	return sorted[(len(sorted)-1)/2]
}

// Options tune the check.
type Options struct {
	Runs      int // runs measured per number of workers, the best kept; 0 means 3
	CalibReps int // repetitions of the calibration tests; 0 means 3
	// Migrate runs and simulates with orders resuming on any free
	// worker (orders.Config.Migrate, ordersim.Options.Migrate).
	Migrate bool
}

func (o Options) runs() int {
	if o.Runs <= 0 {
		return 3
	}
	return o.Runs
}

func (o Options) calibReps() int {
	if o.CalibReps <= 0 {
		return 3
	}
	return o.CalibReps
}

const machine = "this"

// Check calibrates p on this machine, records its trace at size, and for
// every number of workers measures the best makespan of real runs and
// predicts it by simulating the trace on as many nodes of one core, FIFO,
// free transfers (the local workers share memory). It records twice:
// with BestConstants, which match the best-of measurement, and with the
// mean constants c̄.
func Check(p programs.Program, size int, workers []int, opt Options) ([]Figure, error) {
	rows, err := calibrate(p, size, opt)
	if err != nil {
		return nil, err
	}
	mean, _, err := orders.ConstantsFor(rows, machine, p.Name+".csv")
	if err != nil {
		return nil, err
	}
	best, err := quickestRecord(p, size, BestConstants(rows), opt)
	if err != nil {
		return nil, err
	}
	byMean, err := quickestRecord(p, size, mean, opt)
	if err != nil {
		return nil, err
	}
	var figs []Figure
	for _, w := range workers {
		f := Figure{Program: p.Name, Size: size, Workers: w, Migrate: opt.Migrate}
		before := Capacity(w)
		if f.Measured, f.Spread, err = measure(p, size, w, opt); err != nil {
			return nil, err
		}
		f.Capacity = min(before, Capacity(w))
		if f.Predicted, err = predict(best, w, opt); err != nil {
			return nil, err
		}
		if f.PredictedMean, err = predict(byMean, w, opt); err != nil {
			return nil, err
		}
		figs = append(figs, f)
	}
	return figs, nil
}

// calibrate runs p's tests and returns the rows.
func calibrate(p programs.Program, size int, opt Options) ([]calibration.Row, error) {
	var buf bytes.Buffer
	cfg := orders.Config{Mode: orders.ModeCalibrate, Reps: opt.calibReps(), Machine: machine, Output: &buf, Tests: p.Tests(size)}
	if _, err := p.Run(cfg, size); err != nil {
		return nil, fmt.Errorf("%s: calibrate: %w", p.Name, err)
	}
	return calibration.ReadAll(&buf, p.Name+".csv")
}

// BestConstants returns, for every block, the mean over its α of the
// fastest run of each α: the constants of the machine when nothing else
// slows it down, as the best of several real runs measures it.
func BestConstants(rows []calibration.Row) calibration.Constants {
	type key struct{ block, alpha string }
	best := map[key]float64{}
	for _, r := range rows {
		k := key{r.Block, fmt.Sprint(r.Alpha)}
		if c, ok := best[k]; !ok || r.C() < c {
			best[k] = r.C()
		}
	}
	sum, n := map[string]float64{}, map[string]int{}
	for k, c := range best {
		sum[k.block] += c
		n[k.block]++
	}
	out := calibration.Constants{}
	for b, s := range sum {
		out[b] = s / float64(n[b])
	}
	return out
}

// quickestRecord records p's trace opt.Runs times and keeps the one whose
// sequential run is the shortest. Record mode times the code outside the
// blocks for real, so its first recording in a process pays the heap's
// growth and page faults (a third more for matmul here); the measurement
// it is compared with is the best of opt.Runs runs, so the prediction is
// made from the best of as many recordings.
func quickestRecord(p programs.Program, size int, consts calibration.Constants, opt Options) (*ordersim.Prepared, error) {
	var best *ordersim.Prepared
	bestTime := math.Inf(1)
	for range opt.runs() {
		runtime.GC()
		tr, err := record(p, size, consts)
		if err != nil {
			return nil, err
		}
		t, err := predict(tr, 1, opt)
		if err != nil {
			return nil, err
		}
		if t < bestTime {
			best, bestTime = tr, t
		}
	}
	return best, nil
}

// record records p's trace at size with the constants and prepares it for
// simulation.
func record(p programs.Program, size int, consts calibration.Constants) (*ordersim.Prepared, error) {
	var trace bytes.Buffer
	cfg := orders.Config{Mode: orders.ModeRecord, Program: p.Name, Constants: consts, Machine: machine, Output: &trace}
	if _, err := p.Run(cfg, size); err != nil {
		return nil, fmt.Errorf("%s: record: %w", p.Name, err)
	}
	return ordersim.Prepare(func() (ordertrace.Source, error) {
		return ordertrace.NewReader(bytes.NewReader(trace.Bytes()), p.Name+".jsonl")
	})
}

// predict simulates the trace on workers nodes of one core.
func predict(tr *ordersim.Prepared, workers int, opt Options) (float64, error) {
	r, err := tr.Simulate(ordersim.Cluster{Nodes: workers}, ordersim.Options{Scheduler: ordersim.FIFO, Pin: !opt.Migrate, NoCriticalPath: true})
	if err != nil {
		return 0, err
	}
	return r.Makespan, nil
}

// measure returns the best makespan of opt.Runs real runs on workers
// workers, after one run not timed. As a benchmark warms up, the first run
// maps the heap the program needs from the system: on a virtual machine
// its page faults cost as much as the blocks (matmul took 0.26 s on one
// worker after a calibration, 0.14 s once warm), a cost the calibration,
// which reuses its arguments, never sees.
func measure(p programs.Program, size, workers int, opt Options) (best, spread float64, err error) {
	best, slowest := math.Inf(1), 0.0
	for i := range 1 + opt.runs() {
		runtime.GC() // as testing does before a benchmark: no run pays for its predecessor's garbage
		rep, err := p.Run(orders.Config{Workers: workers, Pin: !opt.Migrate}, size)
		if err != nil {
			return 0, 0, fmt.Errorf("%s: run on %d workers: %w", p.Name, workers, err)
		}
		if i > 0 {
			best, slowest = min(best, rep.Elapsed.Seconds()), max(slowest, rep.Elapsed.Seconds())
		}
	}
	return best, slowest/best - 1, nil
}

// CheckAll runs Check on every example program at its default size.
func CheckAll(workers []int, opt Options) ([]Figure, error) {
	var all []Figure
	for _, p := range programs.All() {
		figs, err := Check(p, p.Size, workers, opt)
		if err != nil {
			return nil, err
		}
		all = append(all, figs...)
	}
	return all, nil
}
