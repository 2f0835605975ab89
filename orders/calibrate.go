package orders

import (
	"context"
	"fmt"
	"math"
	goruntime "runtime"
	"strings"

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

func (m *calibrateMode) make(_ *Ctx, name string, _ int64, body func(*Ctx) (int64, error)) *order {
	m.count++
	o := &order{id: m.count, proc: name}
	func() {
		var err error
		defer func() {
			ended(o, err, recover())
			m.note(o)
		}()
		_, err = body(&Ctx{rt: m, ord: o, run: &m.runState})
	}()
	return o
}

func (m *calibrateMode) get(*Ctx, *order) error { return nil }

// block times real. The repetition number of a row counts the timed
// runs of its block and α, so that a test running a block several times
// gives several rows.
func (m *calibrateMode) block(_ *Ctx, name string, cost Cost, real, _ func()) {
	seconds := timeBlock(real)
	key := name + "\x00" + alphaKey(cost.Alpha)
	rep := m.reps[key]
	m.reps[key]++
	m.rows = append(m.rows, calibration.Row{Block: name, Alpha: cost.Alpha, F: cost.F,
		Seconds: seconds, Machine: m.machine, Rep: rep})
}

func alphaKey(alpha []float64) string {
	var b strings.Builder
	for _, a := range alpha {
		fmt.Fprintf(&b, "%v;", a)
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

// calibrate runs every test reps times, collecting garbage before each
// run so that a collection seldom lands inside a timed block, and times
// the reference algorithm once per repetition.
func calibrate(ctx context.Context, cfg Config) ([]calibration.Row, error) {
	tests, reps, machine := cfg.Tests, cfg.reps(), cfg.machine()
	m := &calibrateMode{machine: machine, reps: map[string]int{}}
	m.start(ctx, cfg.Check)
	defer m.cancel()
	for range reps {
		goruntime.GC()
		m.block(nil, RefBlock, Cost{F: 1}, reference, nil)
		for _, t := range tests {
			goruntime.GC()
			m.make(nil, t.Name, 0, func(c *Ctx) (int64, error) { return 0, t.Run(c) })
			if err := m.err(ctx); err != nil {
				return nil, fmt.Errorf("test %s: %w", t.Name, err)
			}
		}
	}
	return m.rows, nil
}
