package orders

import (
	"context"
	"fmt"
	"math"
	goruntime "runtime"
	"slices"
	"strings"

	"golang.org/x/sync/errgroup"

	"github.com/presage-dvm/presage/orders/calibration"
)

// calibrateMode runs tests sequentially (an order runs to its end when it
// is made) and times every block's real implementation.
type calibrateMode struct {
	machine string
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
		_, err = spec.body(&Ctx{rt: m, ord: o, run: &m.runState})
	}()
	return o
}

func (m *calibrateMode) get(*Ctx, *order) error { return nil }

// block times real. The repetition number of a row counts the timed
// runs of its block and α, so that a test running a block several times
// gives several rows.
func (m *calibrateMode) block(_ *Ctx, name string, cost Cost, real, _ func()) {
	seconds, wall := timeBlock(real)
	key := runKey(name, cost.Alpha)
	rep := m.reps[key]
	m.reps[key]++
	m.rows = append(m.rows, calibration.Row{Block: name, Alpha: cost.Alpha, F: cost.F,
		Seconds: seconds, Machine: m.machine, Rep: rep, Copies: 1, Wall: wall})
}

// warmUp runs every test once, untimed: the first run of a process grows
// its heap, faults its pages in and fills its caches, and times its
// blocks up to several times slower than the next ones (a merge of
// 5,000 numbers took 5 times its usual time here), as a benchmark's
// first run does.
func warmUp(ctx context.Context, cfg Config) error {
	w := &calibrateMode{machine: cfg.machine(), reps: map[string]int{}}
	w.start(ctx, cfg.Check)
	defer w.cancel()
	return w.runTests(ctx, cfg.Tests)
}

// runTests runs every test once, collecting garbage before each.
func (m *calibrateMode) runTests(ctx context.Context, tests []TestCase) error {
	for _, t := range tests {
		goruntime.GC()
		m.make(nil, orderSpec{name: t.Name, body: func(c *Ctx) (int64, error) { return 0, t.Run(c) }})
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
		goruntime.GC()
		copies := make([]*calibrateMode, k)
		var g errgroup.Group
		for i := range copies {
			c := &calibrateMode{machine: cfg.machine(), reps: map[string]int{}}
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
	seen := map[string]int{}
	for i := range rows {
		key := runKey(rows[i].Block, rows[i].Alpha)
		rows[i].Copies, rows[i].Rep = k, seen[key]
		seen[key]++
	}
	return rows, nil
}

// stable reports whether every block and α timed in rows has a median
// known within precision: the order statistics around the median that
// bound its 95% confidence interval (n/2 ± 0.98√n, distribution-free)
// lie within precision of it, on either side on average.
func stable(rows []calibration.Row, precision float64) bool {
	byKey := map[string][]float64{}
	for _, r := range rows {
		key := runKey(r.Block, r.Alpha)
		byKey[key] = append(byKey[key], r.Seconds)
	}
	for _, ts := range byKey {
		n := len(ts)
		half := int(math.Ceil(0.98 * math.Sqrt(float64(n))))
		lo, hi := n/2-half, (n-1)/2+half
		if lo < 0 || hi >= n {
			return false // too few runs to bound the median
		}
		slices.Sort(ts)
		med := (ts[n/2] + ts[(n-1)/2]) / 2
		if (ts[hi]-ts[lo])/2 > precision*med {
			return false
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
const RefBlock = "ref"

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

// calibrate runs every test reps times, and more until every block's
// median is stable (or MaxReps), collecting garbage before each run so
// that a collection seldom lands inside a timed block, and times the
// reference algorithm once per repetition; with Contention, it times
// copies of the tests at once; then it times the runtime's own costs
// (OrderBlock, WaitBlock).
func calibrate(ctx context.Context, cfg Config) ([]calibration.Row, error) {
	tests, reps, machine := cfg.Tests, cfg.reps(), cfg.machine()
	if err := warmUp(ctx, cfg); err != nil {
		return nil, err
	}
	m := &calibrateMode{machine: machine, reps: map[string]int{}}
	m.start(ctx, cfg.Check)
	defer m.cancel()
	for rep := 0; rep < reps || rep < cfg.maxReps() && !stable(m.rows, cfg.precision()); rep++ {
		goruntime.GC()
		m.block(nil, RefBlock, Cost{F: 1}, reference, nil)
		if err := m.runTests(ctx, tests); err != nil {
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
	order, wait, err := timeRuntime(ctx, reps)
	if err != nil {
		return nil, fmt.Errorf("timing the runtime: %w", err)
	}
	for i := range order {
		m.rows = append(m.rows,
			calibration.Row{Block: OrderBlock, F: 1, Seconds: order[i], Machine: machine, Rep: i, Copies: 1, Wall: order[i]},
			calibration.Row{Block: WaitBlock, F: 1, Seconds: wait[i], Machine: machine, Rep: i, Copies: 1, Wall: wait[i]})
	}
	return m.rows, nil
}
