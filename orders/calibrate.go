package orders

import (
	"context"
	"fmt"
	"math"
	goruntime "runtime"
	"runtime/debug"
	"strings"

	"golang.org/x/sync/errgroup"

	"github.com/presage-dvm/presage/orders/calibration"
)

// calibrateMode runs tests sequentially (an order runs to its end when it
// is made) and times every block's real implementation.
type calibrateMode struct {
	machine string
	cpu     int // the CPU its thread is pinned to, -1 when not pinned
	rows    []calibration.Row
	reps    map[string]int // timed runs so far of each block and α
	count   int64          // orders made
	runState
}

func (m *calibrateMode) make(_ *Ctx, spec orderSpec) *order {
	m.count++
	o := &order{id: m.count, proc: spec.name}
	func() {
		var err error
		defer func() {
			ended(o, err, recover())
			m.note(o)
		}()
		_, err = spec.body.run(&Ctx{rt: m, ord: o, run: &m.runState})
	}()
	return o
}

func (m *calibrateMode) get(*Ctx, *order) error { return nil }

// block times real. The repetition number of a row counts the timed
// runs of its block and α, so that a test running a block several times
// gives several rows.
func (m *calibrateMode) block(_ *Ctx, name string, cost Cost, real, _ func()) {
	seconds, wall, faults := timeBlock(real)
	key := runKey(name, cost.Alpha)
	rep := m.reps[key]
	m.reps[key]++
	m.rows = append(m.rows, calibration.Row{Block: name, Alpha: cost.Alpha, F: cost.F,
		Seconds: seconds, Machine: m.machine, Rep: rep, Copies: 1, Wall: wall, CPU: m.cpu, Faults: faults})
}

// warmUp runs every test once on each of cpus (once, wherever the system
// puts it, for none), untimed: the first run of a process grows its
// heap, faults its pages in and fills its caches, and times its blocks
// up to several times slower than the next ones (a merge of 5,000
// numbers took 5 times its usual time here), as a benchmark's first run
// does.
func warmUp(ctx context.Context, cfg Config, cpus []int) error {
	w := &calibrateMode{machine: cfg.machine(), cpu: -1, reps: map[string]int{}}
	w.start(ctx, cfg.Check)
	defer w.cancel()
	for i := range max(len(cpus), 1) {
		if err := w.pinned(cpuOf(cpus, i), func() error { return w.runTests(ctx, cfg.Tests) }); err != nil {
			return err
		}
	}
	return nil
}

// cpuOf returns the CPU of round i, taking cpus in turn; -1 (not
// pinned) when there are none.
func cpuOf(cpus []int, i int) int {
	if len(cpus) == 0 {
		return -1
	}
	return cpus[i%len(cpus)]
}

// pinned runs f with its goroutine locked to its thread and the thread
// pinned to cpu (not pinned for -1, or when the system refuses), the
// rows it times marked with the CPU; the thread gets every CPU back
// before it is unlocked, as other goroutines will run on it.
func (m *calibrateMode) pinned(cpu int, f func() error) error {
	goruntime.LockOSThread()
	defer goruntime.UnlockOSThread()
	m.cpu = -1
	if cpu >= 0 {
		restore, ok := pinOSThread(cpu)
		defer restore()
		if ok {
			m.cpu = cpu
		}
	}
	defer func() { m.cpu = -1 }()
	return f()
}

// runTests runs every test once, collecting garbage before each.
func (m *calibrateMode) runTests(ctx context.Context, tests []TestCase) error {
	for _, t := range tests {
		collect()
		m.make(nil, orderSpec{name: t.Name, body: bodyFunc(func(c *Ctx) (int64, error) { return 0, t.Run(c) })})
		if err := m.err(ctx); err != nil {
			return fmt.Errorf("test %s: %w", t.Name, err)
		}
	}
	return nil
}

// timeCopies runs k copies of the tests at once, each on its own thread,
// reps times, and returns their rows (Copies k, numbered by block and α
// over every copy): the blocks' times when k cores share the memory.
func timeCopies(ctx context.Context, cfg Config, k, reps int) ([]calibration.Row, error) {
	var rows []calibration.Row
	for range reps {
		collect()
		copies := make([]*calibrateMode, k)
		var g errgroup.Group
		for i := range copies {
			c := &calibrateMode{machine: cfg.machine(), cpu: -1, reps: map[string]int{}}
			c.start(ctx, cfg.Check)
			copies[i] = c
			g.Go(func() error {
				defer c.cancel()
				return c.runTests(ctx, cfg.Tests)
			})
		}
		if err := g.Wait(); err != nil {
			return nil, fmt.Errorf("%d copies at once: %w", k, err)
		}
		for _, c := range copies {
			rows = append(rows, c.rows...)
		}
	}
	for i := range rows {
		rows[i].Copies = k
	}
	numberReps(rows)
	return rows, nil
}

// numberReps numbers the repetitions of rows anew, in their order: the
// rows of a block, α and number of copies get 0, 1, 2, … (rows gathered
// from several runs of the tests repeat their numbers).
func numberReps(rows []calibration.Row) {
	type series struct {
		run    string
		copies int
	}
	seen := map[series]int{}
	for i := range rows {
		key := series{runKey(rows[i].Block, rows[i].Alpha), rows[i].Copies}
		rows[i].Rep = seen[key]
		seen[key]++
	}
}

// collectorOff turns the collector off while the tests are timed, collect
// running each collection, and returns the function that turns it back
// as it was.
func collectorOff() (restore func()) {
	prev := debug.SetGCPercent(-1)
	return func() { debug.SetGCPercent(prev) }
}

// collect collects garbage and leaves the collector off until the next
// call, so that no collection lands in a timed block, and so that the
// runtime's scavenger keeps the pages the garbage held. After a
// collection the scavenger returns to the system the pages above 1.1
// times the heap in use (runtime, gcPaceScavenger), and the next test
// faulted them in again inside its timed blocks: a merge of 2,000,000
// numbers took up to 2.6 times its time, 12–16 µs per fault, in some
// processes and not in others. With the collector off, the scavenger's
// goal grows with the heap goal, unbounded, and it returns nothing: the
// calibrations of the merge sort then took 0–2 faults in 40 runs, against
// every run before. The collection itself runs at the default GOGC, so
// that the goal it leaves is finite and turning the collector off moves
// it.
func collect() {
	debug.SetGCPercent(100)
	goruntime.GC()
	debug.SetGCPercent(-1)
}

// stable reports whether every block and α timed in rows has a median
// known within precision on every CPU its runs were pinned to: the order
// statistics around the median that bound its 95% confidence interval
// (n/2 ± 0.98√n, distribution-free) lie within precision of it, on
// either side on average (calibration.Point.Bound).
func stable(rows []calibration.Row, precision float64) bool {
	for _, st := range calibration.Analyze(rows, calibration.DefaultThresholds) {
		if st.Block == ProbeBlock {
			continue // the host's state: repetitions do not steady it
		}
		for _, p := range st.Points {
			if !(p.Bound <= precision) {
				return false
			}
		}
	}
	return true
}

// runKey names a block's runs of one α: the rows a repetition number
// counts and a median summarizes.
func runKey(block string, alpha []float64) string {
	var b strings.Builder
	b.WriteString(block)
	for _, a := range alpha {
		fmt.Fprintf(&b, "\x00%v", a)
	}
	return b.String()
}

// RefBlock is the block name under which calibration rows time the
// reference algorithm (f = 1): record mode's "ref" unit is its time on
// the calibration's machine.
const RefBlock = calibration.RefBlock

// reference is the reference algorithm: a fixed chain of floating-point
// square roots and additions, about 10 ms on a 2020s core. Its result is
// kept so that the loop is not optimized away.
func reference() {
	x := 1.0
	for i := range 4_000_000 {
		x = math.Sqrt(x + float64(i&1023))
	}
	referenceSink = x
}

//lint:ignore U1000 written only: the reference loop's result must go somewhere, or the compiler drops the loop
var referenceSink float64

// ProbeBlock is the block name under which calibration rows time the
// probe (calibration.ProbeBlock): the machine's speed for multiply-adds
// while it calibrates, per multiply-add.
const ProbeBlock = calibration.ProbeBlock

// The probe multiplies two probeSide×probeSide matrices probeRounds
// times: 3.3M multiply-adds, about 1 ms on this project's machine when
// its host is quiet and 3 ms when not, in 24 KB that the first cache
// holds.
const (
	probeSide         = 32
	probeRounds       = 100
	probeMultiplyAdds = probeRounds * probeSide * probeSide * probeSide
)

// probe is the probe: the product of two small matrices, looping i, k, j
// as the examples' kernels do.
func probe() {
	var a, b, c [probeSide * probeSide]float64
	for i := range a {
		a[i], b[i] = 1/float64(i+1), float64(i%7)
	}
	for range probeRounds {
		for i := range probeSide {
			ci := c[i*probeSide : (i+1)*probeSide]
			for k := range probeSide {
				aik, bk := a[i*probeSide+k], b[k*probeSide:(k+1)*probeSide]
				for j := range ci {
					ci[j] += aik * bk[j]
				}
			}
		}
	}
	referenceSink = c[0]
}

// calibrate runs every test reps times on each CPU the process may run
// on, its thread pinned to each in turn, and more until every block's
// median is stable on every CPU (or MaxReps on each), collecting garbage
// before each run so that a collection seldom lands inside a timed
// block, and times the reference algorithm and the probe once per
// repetition; with Contention, it times copies of the tests at once;
// then it times the runtime's own costs (OrderBlock, WaitBlock).
func calibrate(ctx context.Context, cfg Config) ([]calibration.Row, error) {
	tests, reps, machine := cfg.Tests, cfg.reps(), cfg.machine()
	cpus := calibrationCPUs()
	collectorOn := collectorOff()
	defer collectorOn()
	if err := warmUp(ctx, cfg, cpus); err != nil {
		return nil, err
	}
	m := &calibrateMode{machine: machine, cpu: -1, reps: map[string]int{}}
	m.start(ctx, cfg.Check)
	defer m.cancel()
	perRound := max(len(cpus), 1) // repetitions count rounds over every CPU
	for rep := 0; rep < reps*perRound || rep < cfg.maxReps()*perRound && !stable(m.rows, cfg.precision()); rep++ {
		err := m.pinned(cpuOf(cpus, rep), func() error {
			collect()
			m.block(nil, RefBlock, Cost{F: 1}, reference, nil)
			m.block(nil, ProbeBlock, Cost{F: probeMultiplyAdds}, probe, nil)
			return m.runTests(ctx, tests)
		})
		if err != nil {
			return nil, err
		}
	}
	if cfg.Contention {
		for k := 2; k <= goruntime.GOMAXPROCS(0); k *= 2 {
			rows, err := timeCopies(ctx, cfg, k, reps)
			if err != nil {
				return nil, err
			}
			m.rows = append(m.rows, rows...)
		}
	}
	collectorOn() // the runtime's costs are timed as a program runs, collector on
	order, wait, err := timeRuntime(ctx, reps)
	if err != nil {
		return nil, fmt.Errorf("timing the runtime: %w", err)
	}
	for i := range order {
		m.rows = append(m.rows,
			calibration.Row{Block: OrderBlock, F: 1, Seconds: order[i], Machine: machine, Rep: i, Copies: 1, Wall: order[i], CPU: -1},
			calibration.Row{Block: WaitBlock, F: 1, Seconds: wait[i], Machine: machine, Rep: i, Copies: 1, Wall: wait[i], CPU: -1})
	}
	return m.rows, nil
}
