package fit

import (
	"math"
)

// Observation is one fitted interval of a measured run beside its
// prediction without run work. Open marks an interval open at the trace's
// end: the run work lengthens it by exactly itself, and no other one
// (machine.Machine.RunWork), so the run work that fits best is found
// without simulating again.
type Observation struct {
	Predicted, Measured float64
	Open                bool
}

// HostFit is what FitHost found: the in-node message start-up time and
// the run work of the extended model, and the root mean square of the
// residuals there (the starting machine's, RMSStart, to compare).
type HostFit struct {
	TStartNode, RunWork float64
	RMS, RMSStart       float64
	Simulations         int // distinct start-up times predicted
}

// stepsPerDecade is FitHost's coarse grid over the in-node start-up time:
// a factor 1.78 between neighbours, refined by a golden-section search
// around the best.
const stepsPerDecade = 4

// refineSteps are the golden-section steps within the best neighbours of
// the coarse grid: the bracket shrinks to 0.618^12 of two grid steps, a
// factor 1.004 on the start-up time, far below the runs' noise.
const refineSteps = 12

// FitHost fits the two host parameters of the extended model the DVM
// reality check needs (docs/compare.md, "The extended model"): the
// start-up time of a message inside a node (TStartNode, within its
// Bounds) and the run work (RunWork, from 0 to its upper bound), to the
// observations predict gives for a start-up time, which it must give for
// every fitted run with no run work. It minimises the sum of squared
// Residuals. The start-up time is a profile search: a grid of
// stepsPerDecade points per decade over its bounds, and start, then a
// golden-section search between the best point's neighbours; at each
// start-up time the best run work is a one-dimensional search with no
// simulation (Observation.Open). A prediction is simulated once per
// start-up time the search visits: the caller may remember them across
// fits, since the grid's points are the same for every fit.
func FitHost(predict func(tstart float64) ([]Observation, error), start float64) (HostFit, error) {
	var out HostFit
	nObs := 0
	// eval is the least sum of squares at start-up time exp(logT), and
	// the run work that gives it.
	eval := func(logT float64) (ss, w float64, err error) {
		obs, err := predict(math.Exp(logT))
		if err != nil {
			return 0, 0, err
		}
		out.Simulations++
		nObs = len(obs)
		w, ss = bestRunWork(obs)
		return ss, w, nil
	}
	// The start is a candidate: the fit is never worse than it.
	obs, err := predict(start)
	if err != nil {
		return out, err
	}
	out.Simulations, nObs = 1, len(obs)
	out.RMSStart = rootMean(obsSquares(obs, 0), nObs)
	bestAt := math.Log(start)
	bestW, bestSS := bestRunWork(obs)
	lo, hi := math.Log(Bounds[TStartNode][0]), math.Log(Bounds[TStartNode][1])
	step := math.Ln10 / stepsPerDecade
	n := int(math.Round((hi-lo)/step)) + 1
	best := -1
	for i := range n {
		ss, w, err := eval(lo + float64(i)*step)
		if err != nil {
			return out, err
		}
		if ss < bestSS {
			best, bestAt, bestSS, bestW = i, lo+float64(i)*step, ss, w
		}
	}
	if best >= 0 {
		a, b := lo+float64(max(best-1, 0))*step, lo+float64(min(best+1, n-1))*step
		for range refineSteps {
			c, d := b-(b-a)/math.Phi, a+(b-a)/math.Phi
			sc, wc, err := eval(c)
			if err != nil {
				return out, err
			}
			sd, wd, err := eval(d)
			if err != nil {
				return out, err
			}
			if sc < bestSS {
				bestAt, bestSS, bestW = c, sc, wc
			}
			if sd < bestSS {
				bestAt, bestSS, bestW = d, sd, wd
			}
			if sc < sd {
				b = d
			} else {
				a = c
			}
		}
	}
	out.TStartNode, out.RunWork, out.RMS = math.Exp(bestAt), bestW, rootMean(bestSS, nObs)
	if best < 0 && bestAt == math.Log(start) {
		out.TStartNode = start // not exp(log(start)), a rounding away
	}
	return out, nil
}

// bestRunWork is the run work, from 0 to its upper bound, whose
// observations' sum of squared residuals is least, and that sum. A
// residual is monotone in the run work, so the sum has one minimum on a
// logarithmic scale: a golden-section search over log(run work) from
// 1 µs finds it, and 0 is kept when it does better.
func bestRunWork(obs []Observation) (float64, float64) {
	ss := func(w float64) float64 { return obsSquares(obs, w) }
	a, b := math.Log(Bounds[RunWork][0]), math.Log(Bounds[RunWork][1])
	for range 60 {
		c := b - (b-a)/math.Phi
		d := a + (b-a)/math.Phi
		if ss(math.Exp(c)) < ss(math.Exp(d)) {
			b = d
		} else {
			a = c
		}
	}
	w := math.Exp((a + b) / 2)
	if s0, sw := ss(0), ss(w); s0 <= sw {
		return 0, s0
	}
	return w, ss(w)
}

// obsSquares is the sum of the observations' squared residuals with run
// work w.
func obsSquares(obs []Observation, w float64) float64 {
	var s float64
	for _, o := range obs {
		p := o.Predicted
		if o.Open {
			p += w
		}
		r := Residual(p, o.Measured)
		s += r * r
	}
	return s
}

func rootMean(ss float64, n int) float64 {
	if n == 0 {
		return math.NaN()
	}
	return math.Sqrt(ss / float64(n))
}
