package stage

import "time"

// Cost is what a configuration is expected to cost before it runs, in two
// parts whose relative weight is not known for sure: Fixed, what every
// configuration of the sweep pays (the traced calls or orders to replay),
// and Scaled, what grows with the configuration's size (processors or
// nodes times the calls or orders). Its prior cost is Fixed + Scaled; the
// estimator refits the weight of each part from the measured times.
type Cost struct {
	Fixed, Scaled float64
}

func (c Cost) add(d Cost) Cost { return Cost{c.Fixed + d.Fixed, c.Scaled + d.Scaled} }

// ordersCost is the expected cost of an orders sweep's run on n nodes of a
// trace of orders: ordersim handles every order, and each dispatch scans
// bit sets of the nodes a 64-bit word at a time, so the per-order work
// grows with the words of nodes (not rounded up: other per-node work
// grows with n too, and the fit only needs the shape).
func ordersCost(orders int64, n int) Cost {
	o := float64(max(orders, 1))
	return Cost{Fixed: o, Scaled: o * float64(n) / 64}
}

// dvmCost is the expected cost of a DVM sweep's configuration of procs
// processors replaying calls traced calls: every call is simulated on
// every processor of the grid, plus a per-call overhead.
func dvmCost(calls int64, procs int) Cost {
	c := float64(max(calls, 1))
	return Cost{Fixed: c, Scaled: c * float64(max(procs, 1))}
}

// estimator estimates the time a sweep has left from the expected costs
// of its configurations rather than their count: sweeps run their largest
// configurations first, so extrapolating from the count is wildly off
// early on. After every finished configuration it fits the measured times
// of the finished ones as a non-negative a·Fixed + b·Scaled, so a wrong
// prior weight of the two parts corrects itself, and predicts the rest
// with it, shared by the workers.
//
// The fit is least squares in relative terms (each configuration weighted
// by its prior cost's inverse square: a run's noise is a share of its
// time), with a prior pulling a and b towards the prior cost's equal
// weights. Without the prior two configurations two times apart in size
// fit their noise exactly, and the many small configurations left
// multiply it; with it, the data move a weight only as far as they tell
// the two parts apart.
type estimator struct {
	total, done Cost
	workers     int
	left        int // configurations not finished
	// Sums over the finished configurations' costs (f, s, p = f + s) and
	// times t, each weighted by 1/p².
	ff, ss, fs, ft, st, pp, pt float64
	n                          int
}

const (
	// etaNoise is the relative noise assumed of a measured time.
	etaNoise = 0.1
	// etaPrior is the relative spread of the prior weights: how far from
	// equal the fixed and scaled parts' costs per unit are expected to be.
	etaPrior = 1.0
)

// newEstimator starts an estimate of configs configurations costing
// total, run by workers at a time.
func newEstimator(total Cost, configs, workers int) *estimator {
	return &estimator{total: total, left: configs, workers: max(workers, 1)}
}

// finished records a configuration of cost c that took took to simulate.
func (e *estimator) finished(c Cost, took time.Duration) {
	e.done = e.done.add(c)
	e.left--
	f, s, t := c.Fixed, c.Scaled, took.Seconds()
	p := f + s
	if p <= 0 {
		return
	}
	w := 1 / (p * p)
	e.ff += w * f * f
	e.ss += w * s * s
	e.fs += w * f * s
	e.ft += w * f * t
	e.st += w * s * t
	e.pp += w * p * p
	e.pt += w * p * t
	e.n++
}

// remaining is the estimated time left, 0 when nothing has finished yet
// or nothing is left.
func (e *estimator) remaining() time.Duration {
	a, b, ok := e.fit()
	if !ok || e.left <= 0 {
		return 0
	}
	sec := a*(e.total.Fixed-e.done.Fixed) + b*(e.total.Scaled-e.done.Scaled)
	sec /= float64(min(e.workers, e.left))
	if sec <= 0 {
		return 0
	}
	return time.Duration(sec * float64(time.Second))
}

// fit returns the non-negative weights a, b (seconds per unit) of the
// fixed and scaled costs: the posterior mean of the weighted least squares
// with the prior, or when one comes out negative, the other part alone.
func (e *estimator) fit() (a, b float64, ok bool) {
	if e.n == 0 || e.pp <= 0 {
		return 0, 0, false
	}
	// The prior cost's one weight fitted: the centre of the prior.
	m := e.pt / e.pp
	if m <= 0 {
		return 0, 0, true
	}
	// A time t of prior cost p is taken to be off by etaNoise·m·p. The
	// prior is on each part's share of the whole sweep's time, so that a
	// part small in total is held no tighter than a large one: a has the
	// spread etaPrior·m·(Fixed + Scaled)/Fixed. Both precisions are
	// multiplied by (etaNoise·m)², which leaves the sums as they are.
	tot := e.total.Fixed + e.total.Scaled
	r := etaNoise * etaNoise / (etaPrior * etaPrior)
	ka := r * (e.total.Fixed / tot) * (e.total.Fixed / tot)
	kb := r * (e.total.Scaled / tot) * (e.total.Scaled / tot)
	aa, bb, ab := e.ff+ka, e.ss+kb, e.fs
	ra, rb := e.ft+ka*m, e.st+kb*m
	det := aa*bb - ab*ab
	if det <= 0 {
		return m, m, true
	}
	a = (ra*bb - rb*ab) / det
	b = (rb*aa - ra*ab) / det
	switch {
	case a >= 0 && b >= 0:
		return a, b, true
	case a < 0:
		return 0, max(rb/bb, 0), true
	default:
		return max(ra/aa, 0), 0, true
	}
}
