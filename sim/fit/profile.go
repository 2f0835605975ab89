package fit

import (
	"math"
	"slices"
)

// Observation is one fitted interval of a measured run beside its
// prediction without run work and I/O copy time. Open marks an interval
// open at the trace's end: the run work lengthens it by exactly itself,
// and no other one (machine.Machine.RunWork). IOBytes is how much the I/O
// copy time lengthens it, seconds per second-per-byte: the bytes the I/O
// statements within it copy, where the I/O processor's extra time
// lengthens the interval one for one (machine.Machine.IOByte).
// Contended is how much the node contention lengthens it, seconds per unit
// of contention (machine.Machine.Contention): 0 where no process shares a
// node. Strided is how much the strided iteration time lengthens it,
// seconds per second-per-iteration (machine.Machine.Strided): 0 where no
// loop in it is pipelined across its array's contiguous dimension. So the
// terms that fit best are found without simulating again. Spread is how
// far the measured rounds spread, the logarithm of the slowest over the
// fastest (0 for one round): where half of it exceeds HuberDelta, a
// residual counts in units of half of it over HuberDelta (uncertainty).
type Observation struct {
	Predicted, Measured float64
	Open                bool
	IOBytes             float64
	Contended           float64
	Strided             float64
	Spread              float64
}

// HostFit is what FitHost found: the in-node message start-up time, the
// run work, the I/O copy time, the node contention and the strided
// iteration time of the extended model, and the root mean square of the
// residuals there (the starting machine's, RMSStart, to compare). Split
// says how the time the open intervals lack was divided between the run
// work and the I/O copy time.
type HostFit struct {
	TStartNode, RunWork, IOByte, Contention, Strided float64
	Split                                            IOSplit
	RMS, RMSStart                                    float64
	Simulations                                      int // distinct start-up times predicted
}

// IOSplit is how FitHost divides the time the intervals open at the
// trace's end lack between the run work (the same at every size) and the
// I/O copy time (per byte the I/O statements copy).
type IOSplit int

const (
	// SplitBySizes: the intervals copy amounts that differ by
	// identifyRatio or more (runs of different sizes), which tell the two
	// terms apart: both are fitted.
	SplitBySizes IOSplit = iota
	// SplitToBytes: runs of one size, no I/O copy time given: the I/O copy
	// time is fitted alone and the run work stays 0. Runs of one size fit
	// any sum of the two alike; the per-byte term is the one that carries
	// to another size, as the fits of two sizes find (every such fit of
	// the DVM reality check puts the run work at 0, docs/compare.md), where
	// the run work alone, fitted on the big size, made the small runs
	// three to four times too slow.
	SplitToBytes
	// SplitGiven: the I/O copy time is the value given (a machine file's
	// iobyte, a flag), or the intervals copy nothing: the run work is
	// fitted.
	SplitGiven
)

// String says what the split did with the I/O copy time, for reports.
func (s IOSplit) String() string {
	switch s {
	case SplitBySizes:
		return "fitted"
	case SplitToBytes:
		return "fitted alone: runs of one size cannot tell it from the run work, which is kept at 0"
	default:
		return "kept: runs of one size cannot tell it from the run work"
	}
}

// splitOf is how the observations divide the open intervals' time between
// the run work and the I/O copy time, ioByte being the value given (0:
// none).
func splitOf(obs []Observation, ioByte float64) IOSplit {
	lo, hi := math.Inf(1), 0.0
	for _, o := range obs {
		switch {
		case !o.Open && o.IOBytes > 0:
			return SplitBySizes
		case o.Open:
			lo, hi = math.Min(lo, o.IOBytes), math.Max(hi, o.IOBytes)
		}
	}
	switch {
	case hi > 0 && hi >= identifyRatio*lo:
		return SplitBySizes
	case hi > 0 && ioByte == 0:
		return SplitToBytes
	default:
		return SplitGiven
	}
}

// stepsPerDecade is FitHost's coarse grid over the in-node start-up time:
// a factor 1.78 between neighbours, refined by a golden-section search
// around the best.
const stepsPerDecade = 4

// refineSteps are the golden-section steps within the best neighbours of
// the coarse grid: the bracket shrinks to 0.618^12 of two grid steps, a
// factor 1.004 on the start-up time, far below the runs' noise.
const refineSteps = 12

// FitHost fits the host parameters of the extended model the DVM reality
// check needs (docs/compare.md, "The extended model"): the start-up time
// of a message inside a node (TStartNode, within its Bounds), the run work
// (RunWork, from 0 to its upper bound), the I/O copy time per byte (from 0
// to IOByteBounds' upper one), the node contention (from 0 to its upper
// bound, where some observation is contended) and the strided iteration
// time (from 0 to its upper bound, where some observation is strided), to
// the observations predict gives for a start-up time, which it must give
// for every fitted run with none of the four. It minimises the sum of the
// Residuals' Huber losses (huber: squares within HuberDelta, linear
// beyond). The start-up time is a profile search: a grid of stepsPerDecade
// points per decade over its bounds, and start, then a golden-section
// search between the best point's neighbours; at each start-up time the
// best run work, I/O copy time, contention and strided iteration time are
// found with no simulation (Observation.Open, IOBytes, Contended and
// Strided, bestTerms). The run work and the I/O copy time are divided as
// splitOf says: both fitted where the observations tell them apart, else
// the I/O copy time alone where none is given (ioByte 0, the intervals
// copying bytes), else the run work with the I/O copy time ioByte (a
// machine file's, or 0). A prediction is
// simulated once per start-up time the search visits: the caller may
// remember them across fits, since the grid's points are the same for
// every fit.
func FitHost(predict func(tstart float64) ([]Observation, error), start, ioByte float64) (HostFit, error) {
	out := HostFit{IOByte: ioByte}
	// at is the candidate at start-up time exp(logT): its observations
	// and the terms of least loss with them.
	at := func(logT float64) (candidate, error) {
		obs, err := predict(math.Exp(logT))
		if err != nil {
			return candidate{}, err
		}
		out.Simulations++
		t, loss := bestTerms(obs, ioPrice{splitOf(obs, ioByte), ioByte})
		return candidate{logT, t, loss, obs}, nil
	}
	// The start is a candidate: the fit is never worse than it.
	best, err := at(math.Log(start))
	if err != nil {
		return out, err
	}
	out.RMSStart = rootMean(obsSquares(best.obs, terms{}), len(best.obs))
	out.Split = splitOf(best.obs, ioByte)
	lo, hi := math.Log(Bounds[TStartNode][0]), math.Log(Bounds[TStartNode][1])
	step := math.Ln10 / stepsPerDecade
	n := int(math.Round((hi-lo)/step)) + 1
	bestStep := -1
	for i := range n {
		c, err := at(lo + float64(i)*step)
		if err != nil {
			return out, err
		}
		if c.loss < best.loss {
			best, bestStep = c, i
		}
	}
	if bestStep >= 0 {
		a, b := lo+float64(max(bestStep-1, 0))*step, lo+float64(min(bestStep+1, n-1))*step
		for range refineSteps {
			c, err := at(b - (b-a)/math.Phi)
			if err != nil {
				return out, err
			}
			d, err := at(a + (b-a)/math.Phi)
			if err != nil {
				return out, err
			}
			for _, x := range []candidate{c, d} {
				if x.loss < best.loss {
					best = x
				}
			}
			if c.loss < d.loss {
				b = d.logT
			} else {
				a = c.logT
			}
		}
	}
	out.TStartNode, out.RunWork, out.IOByte, out.Contention, out.Strided = math.Exp(best.logT), best.t.runWork, best.t.ioByte, best.t.contention, best.t.strided
	if bestStep < 0 {
		out.TStartNode = start // not exp(log(start)), a rounding away
	}
	out.RMS = rootMean(obsSquares(best.obs, best.t), len(best.obs))
	return out, nil
}

// candidate is a start-up time FitHost weighed: its logarithm, the terms
// of least loss there, that loss, and the observations it was found with.
type candidate struct {
	logT float64
	t    terms
	loss float64
	obs  []Observation
}

// terms are the extended model's terms FitHost fits without simulating.
type terms struct{ runWork, ioByte, contention, strided float64 }

// ioPrice is how a fit prices the I/O copy time: the split of its
// observations (splitOf, the same at every start-up time: it reads only
// which intervals are open and the bytes they copy) and the value given.
type ioPrice struct {
	split IOSplit
	given float64
}

// identifyRatio is how much the bytes copied in the intervals the run work
// lengthens must differ for FitHost to fit the I/O copy time beside the
// run work (SplitBySizes): an interval the run work does not lengthen
// that copies bytes tells them apart too, as do runs of different sizes;
// runs of one size copy the same bytes in every such interval. Where the
// I/O processor is not the latest processor (a two-process grid) one
// size's bytes lengthen Main by a few percent less than on one process,
// a difference that tells the two terms apart only in the runs' noise.
const identifyRatio = 2

// bestTerms are the extended model's terms whose observations' loss
// (obsLoss) is least, and that loss. Where some observations are strided
// and others not, the run work, the I/O copy time and the contention are
// the ones that fit the others best (bestUnstridedTerms), and the strided
// iteration time then the one that fits every observation best, by a
// golden-section search over its logarithm within its Bounds (0 kept when
// it does better): only the strided observations tell it, and a term they
// alone need must not be taken up by the contention, which every
// two-process run pays (before the term, sor's 1x2 runs pulled the
// contention up and made jac's two-process runs too slow).
func bestTerms(obs []Observation, io ioPrice) (terms, float64) {
	unstrided := slices.DeleteFunc(slices.Clone(obs), func(o Observation) bool { return o.Strided > 0 })
	if len(unstrided) == len(obs) || len(unstrided) == 0 {
		return bestUnstridedTerms(obs, io)
	}
	t, _ := bestUnstridedTerms(unstrided, io)
	// 30 steps shrink the bracket, four decades, to a factor 1+5e-6.
	return bestOrNone(func(s float64) (terms, float64) {
		u := t
		u.strided = s
		return u, obsLoss(obs, u)
	}, Bounds[Strided][0], Bounds[Strided][1], true, 30)
}

// bestUnstridedTerms are the run work, the I/O copy time and the node
// contention whose observations' loss (obsLoss, no strided iteration time)
// is least, and that loss: the contention by a golden-section search
// within its Bounds (0 kept when it does better), when some observation is
// contended; the I/O copy time and the run work at each by bestIOTerms.
func bestUnstridedTerms(obs []Observation, io ioPrice) (terms, float64) {
	if !slices.ContainsFunc(obs, func(o Observation) bool { return o.Contended > 0 }) {
		return bestIOTerms(obs, io, 0)
	}
	// 20 steps shrink the bracket to 1e-4 of its width: a hundredth of a
	// percent of contention.
	return bestOrNone(func(c float64) (terms, float64) { return bestIOTerms(obs, io, c) },
		0, Bounds[Contention][1], false, 20)
}

// bestIOTerms are the run work and the I/O copy time whose observations'
// loss (obsLoss) with contention c is least, and that loss, divided as
// io.split says: the I/O copy time by a golden-section search over its
// logarithm within IOByteBounds (0 kept when it does better), with the
// run work at each by bestRunWork (SplitBySizes) or 0 (SplitToBytes); or
// the I/O copy time given and only the run work fitted (SplitGiven).
func bestIOTerms(obs []Observation, io ioPrice, c float64) (terms, float64) {
	if io.split == SplitGiven {
		w, ss := bestRunWork(obs, io.given, c)
		return terms{runWork: w, ioByte: io.given, contention: c}, ss
	}
	// 30 steps shrink the bracket, four decades, to a factor 1+5e-6.
	return bestOrNone(func(k float64) (terms, float64) {
		if io.split == SplitToBytes {
			t := terms{ioByte: k, contention: c}
			return t, obsLoss(obs, t)
		}
		w, ss := bestRunWork(obs, k, c)
		return terms{runWork: w, ioByte: k, contention: c}, ss
	}, IOByteBounds[0], IOByteBounds[1], true, 30)
}

// bestRunWork is the run work, from 0 to its upper bound, whose
// observations' loss (obsLoss) with I/O copy time k and contention c is
// least, and that loss. A residual is monotone in the run work, so the
// sum has one minimum on a logarithmic scale: a golden-section search
// over log(run work) from 1 µs finds it, and 0 is kept when it does
// better.
func bestRunWork(obs []Observation, k, c float64) (float64, float64) {
	// 40 steps shrink the bracket, six decades, to a factor 1+6e-8.
	return bestOrNone(func(w float64) (float64, float64) {
		return w, obsLoss(obs, terms{runWork: w, ioByte: k, contention: c})
	},
		Bounds[RunWork][0], Bounds[RunWork][1], true, 40)
}

// bestOrNone is the best of one term's values, at's result and loss: the
// value a golden-section search of steps steps finds between lo and hi
// (over the logarithm when logScale), or 0, the term left out, when its
// loss is no larger.
func bestOrNone[T any](at func(v float64) (T, float64), lo, hi float64, logScale bool, steps int) (T, float64) {
	value := func(x float64) float64 { return x }
	if logScale {
		value, lo, hi = math.Exp, math.Log(lo), math.Log(hi)
	}
	x := goldenMin(func(x float64) float64 { _, loss := at(value(x)); return loss }, lo, hi, steps)
	t, loss := at(value(x))
	if t0, loss0 := at(0); loss0 <= loss {
		return t0, loss0
	}
	return t, loss
}

// goldenMin is the middle of the bracket a golden-section search for the
// minimum of f leaves between a and b after steps steps, each evaluating f
// once (the search keeps the inner point it shares with the next bracket).
func goldenMin(f func(float64) float64, a, b float64, steps int) float64 {
	c, d := b-(b-a)/math.Phi, a+(b-a)/math.Phi
	fc, fd := f(c), f(d)
	for range steps {
		if fc < fd {
			b, d, fd = d, c, fc
			c = b - (b-a)/math.Phi
			fc = f(c)
		} else {
			a, c, fc = c, d, fd
			d = a + (b-a)/math.Phi
			fd = f(d)
		}
	}
	return (a + b) / 2
}

// obsSquares is the sum of the observations' squared residuals with the
// terms t.
func obsSquares(obs []Observation, t terms) float64 {
	return obsSum(obs, t, func(_ Observation, r float64) float64 { return r * r })
}

// obsLoss is the sum of the observations' Huber losses with the terms t:
// what FitHost minimises. A residual is divided by its rounds' half
// spread over HuberDelta where that half spread exceeds HuberDelta: a run
// whose rounds disagree by 40% knows its time less well than one whose
// rounds agree within 5%, and the reality check holds a prediction of it
// to its spread too (compare.RealityRow.Holds). Counted alike, a noisy
// host's widest runs set the parameters every other run then paid for
// (docs/compare.md, "The fit").
func obsLoss(obs []Observation, t terms) float64 {
	return obsSum(obs, t, func(o Observation, r float64) float64 { return huber(r / o.uncertainty()) })
}

// uncertainty is the unit an observation's residual counts in: 1 where
// its rounds spread within twice HuberDelta, else their half spread over
// HuberDelta.
func (o Observation) uncertainty() float64 { return max(1, o.Spread/(2*HuberDelta)) }

func obsSum(obs []Observation, t terms, f func(o Observation, r float64) float64) float64 {
	var s float64
	for _, o := range obs {
		p := o.Predicted + t.ioByte*o.IOBytes + t.contention*o.Contended + t.strided*o.Strided
		if o.Open {
			p += t.runWork
		}
		s += f(o, Residual(p, o.Measured))
	}
	return s
}

// HuberDelta is the residual beyond which FitHost counts an observation's
// error by its size rather than by its square (Huber's loss): 0.1, an
// error of about 10%, the reality check's bound. One grid's runs may
// all come out 10–25% slow (sor's 1x2, whose runs spread by a quarter from
// one to the next, docs/compare.md); by squares such a grid pulls the
// parameters every other run agrees on three times as hard as a run off
// by 10%, and the runs it was not fitted to pay for it.
const HuberDelta = 0.1

// huber is Huber's loss of a residual: its square within HuberDelta, and
// beyond it the line that continues the square without a kink.
func huber(r float64) float64 {
	if a := math.Abs(r); a > HuberDelta {
		return 2*HuberDelta*a - HuberDelta*HuberDelta
	}
	return r * r
}

func rootMean(ss float64, n int) float64 {
	if n == 0 {
		return math.NaN()
	}
	return math.Sqrt(ss / float64(n))
}
