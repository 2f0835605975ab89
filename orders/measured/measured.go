package measured

import (
	"fmt"
	"math"
	"time"
)

// Format and Version identify the file format in its header line.
const (
	Format  = "presage-orders-run"
	Version = 2 // 2 adds the scheduler and the schedule, order by order
)

// MaxWorkers bounds the workers of a run: more lines than any machine's
// cores is a damaged file, not a run.
const MaxWorkers = 1 << 16

// Execution is a measured run of an orders program.
type Execution struct {
	Program   string
	Machine   string
	Scheduler string    // the placement rule (sim/ordersim's names); "" in files of version 1, which ran FIFO
	Migrate   bool      // orders resumed on any free worker
	Started   time.Time // when the run started (UTC, to the second in the file)
	Orders    int64     // orders made
	Makespan  float64   // s, from the main order's start to the last order's end
	Workers   []Worker
	// Cores, for a run whose workers were the cores of worker processes
	// (run mode's -orders.procs), is the cores of each: worker w·Cores+k
	// is core k of process w. 0 for a run in one process.
	Cores int
	// Schedule is every order's real schedule, in order of Order.ID;
	// empty when the run did not record it (always in version 1 files).
	Schedule []Order
}

// Order is the real schedule of one order. Times are seconds since the
// run started (the main order's start).
type Order struct {
	ID     int64 // numbered by the run as orders were made, from 1 (main)
	Parent int64 // 0 for main
	// Child is the order's place among its parent's children, from 0:
	// with the parent's, it names the same order in the recorded trace,
	// whose numbers differ.
	Child int
	Proc  string
	Made  float64
	// Stretches are the stretches it ran, in time order; between two it
	// was suspended in Get, holding no worker. At least one.
	Stretches []Stretch
}

// Stretch is a stretch of time an order ran on a worker.
type Stretch struct {
	Worker     int
	Start, End float64
}

// Worker is how one worker spent the run, in seconds; the three add up to
// the makespan.
type Worker struct {
	Orders  int64   // orders started on it
	Busy    float64 // running an order
	Waiting float64 // free while orders suspended on it waited for results
	Idle    float64 // free with nothing to run
}

// maxDuration bounds every duration of the file, in seconds: the range of
// sim/machine.DurationRange, the one every traced or measured duration
// keeps (a sum of a billion of them stays finite), which a test of this
// package holds it to. It is a constant here because the runtime, which
// writes these files, links nothing of the simulator.
const maxDuration = 1e9

// durationWant says what a duration must be, as DurationRange.Want does.
const durationWant = "expected a number of seconds from 0 to 1000000000"

// duration reports whether v is a duration the file may give (NaN is not).
func duration(v float64) bool { return v >= 0 && v <= maxDuration }

// tolerance is how far a worker's three times may add up from the
// makespan: the clock is read once per change of a worker's state, and a
// run measured to the nanosecond carries rounding in the file's decimals.
func tolerance(makespan float64) float64 { return 1e-6 + 1e-6*makespan }

// check returns what is wrong with r, nil when nothing is; line gives the
// line of worker i in the file.
func (r *Execution) check() (line int, err error) {
	switch {
	case r.Program == "":
		return 1, fmt.Errorf("no program (expected its name)")
	case r.Orders < 1:
		return 1, fmt.Errorf("orders %d (expected at least the main order)", r.Orders)
	case !duration(r.Makespan):
		return 1, fmt.Errorf("makespan %v (%s)", r.Makespan, durationWant)
	}
	var started int64
	for i, w := range r.Workers {
		for _, f := range []struct {
			name string
			v    float64
		}{{"busy", w.Busy}, {"waiting", w.Waiting}, {"idle", w.Idle}} {
			if !duration(f.v) {
				return i + 2, fmt.Errorf("worker %d: %s %v (%s)", i, f.name, f.v, durationWant)
			}
		}
		if w.Orders < 0 {
			return i + 2, fmt.Errorf("worker %d: orders %d (expected ≥ 0)", i, w.Orders)
		}
		if sum := w.Busy + w.Waiting + w.Idle; math.Abs(sum-r.Makespan) > tolerance(r.Makespan) {
			return i + 2, fmt.Errorf("worker %d: busy + waiting + idle = %v s (expected the makespan, %v s)", i, sum, r.Makespan)
		}
		started += w.Orders
	}
	if started != r.Orders {
		return 1, fmt.Errorf("the workers started %d orders (expected the %d orders of the header)", started, r.Orders)
	}
	return 0, nil
}

// order checks an order's line against the run and the orders before it
// (children[i]: how many children of order i+1 came before) and returns
// the order.
func (r *Execution) order(ol *orderLine, children []int) (Order, error) {
	id := ol.Order
	tol := tolerance(r.Makespan)
	switch {
	case id == 1 && (ol.Parent != 0 || ol.Child != 0):
		return Order{}, fmt.Errorf("parent %d, child %d (expected the main order's: parent 0, child 0)", ol.Parent, ol.Child)
	case id > 1 && (ol.Parent < 1 || ol.Parent >= id):
		return Order{}, fmt.Errorf("parent %d (expected an earlier order, 1 to %d)", ol.Parent, id-1)
	case id > 1 && ol.Child != children[ol.Parent-1]:
		return Order{}, fmt.Errorf("child %d (expected %d: a parent's children numbered from 0 in the order it made them)",
			ol.Child, children[ol.Parent-1])
	case ol.Proc == "":
		return Order{}, fmt.Errorf("no proc (expected the procedure's name)")
	case !finite(ol.Made) || ol.Made < 0 || ol.Made > r.Makespan+tol:
		return Order{}, fmt.Errorf("made %v (expected seconds from 0 to the makespan, %v)", ol.Made, r.Makespan)
	case len(ol.Runs) == 0:
		return Order{}, fmt.Errorf("no runs (expected at least one [worker, start, end])")
	}
	o := Order{ID: id, Parent: ol.Parent, Child: ol.Child, Proc: ol.Proc, Made: ol.Made, Stretches: make([]Stretch, len(ol.Runs))}
	prev := 0.0 // the end of the previous stretch
	for i, s := range ol.Runs {
		if len(s) != 3 {
			return Order{}, fmt.Errorf("run %d has %d numbers (expected [worker, start, end])", i, len(s))
		}
		w, start, end := s[0], s[1], s[2]
		switch {
		case w < 0 || w >= float64(len(r.Workers)) || w != math.Trunc(w):
			return Order{}, fmt.Errorf("run %d: worker %v (expected 0 to %d)", i, w, len(r.Workers)-1)
		case !finite(start) || !finite(end) || start < prev || end < start || end > r.Makespan+tol:
			return Order{}, fmt.Errorf("run %d: [%v, %v] (expected start ≤ end within [%v, the makespan %v]: runs in time order)",
				i, start, end, prev, r.Makespan)
		}
		o.Stretches[i] = Stretch{Worker: int(w), Start: start, End: end}
		prev = end
	}
	return o, nil
}

func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }
