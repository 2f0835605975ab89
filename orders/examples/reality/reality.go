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
	"github.com/presage-dvm/presage/orders/ordersched"
	"github.com/presage-dvm/presage/sim/ordersim"
	"github.com/presage-dvm/presage/sim/ordertrace"
)

// Figure is the measured and the predicted makespan of a program on a
// number of workers, in seconds.
type Figure struct {
	Program string
	Size    int
	Workers int
	Placement
	Measured float64 // the best of Options.Runs runs
	// Spread is how far the slowest of those runs is from the best, in
	// proportion: how well the machine repeats itself.
	Spread float64
	// Predicted prices blocks as record mode does from the calibration
	// (calibration.ConstantsOf: the median c of each α, read at the
	// block's f).
	Predicted float64
	// PredictedBest prices them by the fastest run of each α.
	PredictedBest float64
	// PredictedSeed prices them as the seed does: by c̄, the mean of
	// every calibration run of the block, whatever its α.
	PredictedSeed float64
	// Capacity is the smaller of Capacity(Workers) just before and just
	// after the runs: how many cores the machine gave meanwhile.
	Capacity float64
	// Calibrated is what the calibration measured beyond the blocks'
	// constants, as the recorded trace's header carries it.
	Calibrated Calibrated
}

// Calibrated is the runtime's costs per order and per wait and the
// program's slowdown by orders at once, in seconds, as a trace records
// them (ordertrace.Header), and how far the calibration repeated itself.
type Calibrated struct {
	OrderCost, WaitCost float64
	Slowdown            []float64
	// Spread is the median interquartile spread of c(α) over the
	// program's blocks and α (calibration.Point.Spread): the constants
	// are known no closer than that.
	Spread float64
}

func (c Calibrated) String() string {
	return fmt.Sprintf("runtime %.2g µs per order, %.2g µs per wait; slowdown %.3g; calibration spread %.0f%%",
		1e6*c.OrderCost, 1e6*c.WaitCost, c.Slowdown, 100*c.Spread)
}

// Error is the prediction's relative error: (predicted − measured) / measured.
func (f Figure) Error() float64 { return (f.Predicted - f.Measured) / f.Measured }

func (f Figure) String() string {
	return fmt.Sprintf("%s n=%d, %d workers, %s: measured %.1f ms, predicted %.1f ms (%+.1f%%; by the best runs %+.1f%%, by the seed's c̄ %+.1f%%; runs spread %.0f%%; capacity %.2f cores; %v)",
		f.Program, f.Size, f.Workers, f.Placement, 1e3*f.Measured, 1e3*f.Predicted, 100*f.Error(),
		100*(f.PredictedBest/f.Measured-1), 100*(f.PredictedSeed/f.Measured-1), 100*f.Spread, f.Capacity, f.Calibrated)
}

// Median returns the figure of median error among figs (the lower of the
// two middle ones for an even count). figs must not be empty.
func Median(figs []Figure) Figure {
	sorted := slices.SortedFunc(slices.Values(figs), func(a, b Figure) int { return cmp.Compare(a.Error(), b.Error()) })
	return sorted[(len(sorted)-1)/2]
}

// Placement is how the runtime places orders on its workers, and the
// simulation on its nodes: the scheduler, and whether an order that
// waited resumes on any free worker (Migrate) or only on its own.
type Placement struct {
	Scheduler ordersched.Name
	Migrate   bool
}

func (p Placement) String() string {
	if p.Migrate {
		return string(p.Scheduler) + ", migrating"
	}
	return string(p.Scheduler) + ", pinned"
}

// Placements returns every placement: each scheduler, pinned and migrating.
func Placements() []Placement {
	var all []Placement
	for _, s := range ordersched.All {
		all = append(all, Placement{s, false}, Placement{s, true})
	}
	return all
}

// Options tune the check.
type Options struct {
	Runs      int // runs measured per number of workers, the best kept; 0 means 3
	CalibReps int // repetitions of the calibration tests; 0 means 3
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

// seed is work stealing's seed, the same in the runs and the simulations.
const seed = 1

// Check calibrates p on this machine, records its trace at size, and for
// every placement and number of workers measures the best makespan of
// real runs and predicts it by simulating the trace on as many nodes of
// one core placed the same way, free transfers (the local workers share
// memory). It records with the calibration's constants as record mode
// reads them, and for comparison with BestConstants and SeedConstants.
func Check(p programs.Program, size int, workers []int, placements []Placement, opt Options) ([]Figure, error) {
	rows, err := calibrate(p, size, opt)
	if err != nil {
		return nil, err
	}
	stats := calibration.Analyze(rows, calibration.DefaultThresholds)
	var traces [3]*ordersim.Prepared
	var cal Calibrated
	for i, c := range []calibration.Constants{calibration.ConstantsOf(stats, machine), BestConstants(stats), SeedConstants(stats)} {
		// The predictions the check judges are record mode's; the
		// others are shown beside them, from one recording each.
		records := opt.runs()
		if i > 0 {
			records = 1
		}
		var h ordertrace.Header
		if traces[i], h, err = quickestRecord(p, size, c, records); err != nil {
			return nil, err
		}
		if i == 0 {
			cal = Calibrated{h.OrderCost, h.WaitCost, h.Slowdown, blockSpread(stats)}
		}
	}
	var figs []Figure
	for _, pl := range placements {
		for _, w := range workers {
			f := Figure{Program: p.Name, Size: size, Workers: w, Placement: pl, Calibrated: cal}
			before := Capacity(w)
			if f.Measured, f.Spread, err = measure(p, size, w, pl, opt); err != nil {
				return nil, err
			}
			f.Capacity = min(before, Capacity(w))
			for i, to := range []*float64{&f.Predicted, &f.PredictedBest, &f.PredictedSeed} {
				if *to, err = predict(traces[i], w, pl); err != nil {
					return nil, err
				}
			}
			figs = append(figs, f)
		}
	}
	return figs, nil
}

// calibrate runs p's tests and returns the rows.
func calibrate(p programs.Program, size int, opt Options) ([]calibration.Row, error) {
	var buf bytes.Buffer
	cfg := orders.Config{Mode: orders.ModeCalibrate, Reps: opt.calibReps(), Contention: true, Machine: machine, Output: &buf, Tests: p.Tests(size)}
	if _, err := p.Run(cfg, size); err != nil {
		return nil, fmt.Errorf("%s: calibrate: %w", p.Name, err)
	}
	return calibration.ReadAll(&buf, p.Name+".csv")
}

// blockSpread returns the median interquartile spread of c(α) over the
// points of the program's blocks (not the reference's nor the runtime's).
func blockSpread(stats []calibration.Stat) float64 {
	var spreads []float64
	for _, st := range stats {
		if st.Block == orders.RefBlock || st.Block == orders.ProbeBlock || st.Block == orders.OrderBlock || st.Block == orders.WaitBlock {
			continue
		}
		for _, p := range st.Points {
			spreads = append(spreads, p.Spread())
		}
	}
	if len(spreads) == 0 {
		return 0
	}
	slices.Sort(spreads)
	return spreads[(len(spreads)-1)/2]
}

// BestConstants returns, for every block, the curve of the fastest run
// of each α: the constants of the machine when nothing else slows it
// down, as the best of several real runs measures it.
func BestConstants(stats []calibration.Stat) calibration.Constants {
	out := calibration.Constants{}
	for _, st := range stats {
		out[st.Block] = calibration.Pricing{Curve: st.CurveOf(func(p calibration.Point) float64 { return p.Min })}
	}
	return out
}

// SeedConstants returns the seed's constants: for every block, c̄, the
// mean of its every run, for every α.
func SeedConstants(stats []calibration.Stat) calibration.Constants {
	out := calibration.Constants{}
	for _, st := range stats {
		out[st.Block] = calibration.Flat(st.Mean)
	}
	return out
}

// quickestRecord records p's trace records times and keeps the one whose
// sequential run is the shortest. Record mode times the code outside the
// blocks for real, so its first recording in a process pays the heap's
// growth and page faults (a third more for matmul here); the measurement
// it is compared with is the best of Options.Runs runs, so the prediction
// the check judges is made from the best of as many recordings.
func quickestRecord(p programs.Program, size int, consts calibration.Constants, records int) (*ordersim.Prepared, ordertrace.Header, error) {
	var best *ordersim.Prepared
	var header ordertrace.Header
	bestTime := math.Inf(1)
	for range records {
		runtime.GC()
		tr, h, err := record(p, size, consts)
		if err != nil {
			return nil, h, err
		}
		t, err := predict(tr, 1, Placement{Scheduler: ordersched.FIFO})
		if err != nil {
			return nil, h, err
		}
		if t < bestTime {
			best, header, bestTime = tr, h, t
		}
	}
	return best, header, nil
}

// record records p's trace at size with the constants and prepares it for
// simulation; it returns the trace's header too.
func record(p programs.Program, size int, consts calibration.Constants) (*ordersim.Prepared, ordertrace.Header, error) {
	var trace bytes.Buffer
	var h ordertrace.Header
	cfg := orders.Config{Mode: orders.ModeRecord, Program: p.Name, Constants: consts, Machine: machine, Output: &trace}
	if _, err := p.Run(cfg, size); err != nil {
		return nil, h, fmt.Errorf("%s: record: %w", p.Name, err)
	}
	tr, err := ordersim.Prepare(func() (ordertrace.Source, error) {
		r, err := ordertrace.NewReader(bytes.NewReader(trace.Bytes()), p.Name+".jsonl")
		if r != nil {
			h = r.Header()
		}
		return r, err
	})
	return tr, h, err
}

// predict simulates the trace on workers nodes of one core placed by pl.
func predict(tr *ordersim.Prepared, workers int, pl Placement) (float64, error) {
	r, err := tr.Simulate(ordersim.Cluster{Nodes: workers}, ordersim.Options{Scheduler: pl.Scheduler, Pin: !pl.Migrate, Seed: seed,
		NoCriticalPath: true, SharedMemory: true})
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
func measure(p programs.Program, size, workers int, pl Placement, opt Options) (best, spread float64, err error) {
	best, slowest := math.Inf(1), 0.0
	for i := range 1 + opt.runs() {
		runtime.GC() // as testing does before a benchmark: no run pays for its predecessor's garbage
		rep, err := p.Run(orders.Config{Workers: workers, Scheduler: pl.Scheduler, Pin: !pl.Migrate, Seed: seed}, size)
		if err != nil {
			return 0, 0, fmt.Errorf("%s: run on %d workers: %w", p.Name, workers, err)
		}
		if i > 0 {
			best, slowest = min(best, rep.Elapsed.Seconds()), max(slowest, rep.Elapsed.Seconds())
		}
	}
	return best, slowest/best - 1, nil
}
