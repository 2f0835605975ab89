package tracegen

import "math/rand/v2"

// pcgStream is the fixed second word of the PCG state: the seed alone picks
// the sequence.
const pcgStream = 0x9e3779b97f4a7c15

// clock draws the times of the trace.
type clock struct{ r *rand.Rand }

func newClock(seed int64) clock {
	return clock{r: rand.New(rand.NewPCG(uint64(seed), pcgStream))}
}

// quickTimes are the durations the traced runs show for trivial run-time
// calls and short stretches of user code: the timer's resolution makes
// 0.00000100 dominate, with 0.00000095, 0.00000119, 0.00000195 and a few
// others around it.
var quickTimes = [16]ticks{100, 100, 100, 100, 100, 100, 100, 100, 100, 95, 95, 119, 195, 191, 215, 81}

// quick returns the time of a trivial call.
func (c clock) quick() ticks { return quickTimes[c.r.Uint64()&15] }

// near returns base varied uniformly by up to pct percent.
func (c clock) near(base ticks, pct int64) ticks {
	d := int64(base) * pct / 100
	if d <= 0 {
		return base
	}
	return base - ticks(d) + ticks(c.r.Int64N(2*d+1))
}

// work returns the time of a loop body over elems elements costing ps
// picoseconds each (±3%), plus a microsecond of loop overhead. The real
// Jacobi with L=500 spends 0.6-0.7 ns per element.
func (c clock) work(elems, ps int64) ticks {
	return 100 + c.near(ticks(elems*ps/10_000), 3)
}
