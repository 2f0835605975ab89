package fit

import (
	"errors"
	"math"
	"slices"
	"sort"
)

// Residuals returns the residuals of the observations under parameters p
// (Residual of every predicted and measured value): the fit minimises the
// sum of their squares.
type Residuals func(p Params) ([]float64, error)

// Result is the outcome of Fit.
type Result struct {
	Params    Params
	Residuals []float64 // the observations' at Params (without the prior's terms)
	RMS       float64   // root mean square of Residuals
	Evals     int       // evaluations of the residuals
	// StartRMS is the root mean square of the starting machine's
	// residuals on the same observations.
	StartRMS float64
	// Kept: the fitted parameters did not make the observations' error
	// smaller than the starting machine's, so Params are the start's and
	// Residuals the starting machine's (a fit never makes its own data
	// worse).
	Kept bool
	// Fitted are the free parameters some observation depends on, the
	// ones the fit moved; Unused the free ones none depends on, which
	// stay at the start's value (the machine file's), not at a bound.
	Fitted, Unused []Param
}

// Floor is the time below which values count as equal in Residual:
// intervals of a few microseconds are timer noise, and a zero measured
// time must not make an infinite residual.
const Floor = 1e-5

// PriorWeight weighs the fit's pull towards the start (the prior, the
// machine file's values): every fitted parameter the start sets adds the residual
// PriorWeight·ln(value/start), so that a decade away from the prior costs
// as much as a 2.3 % error on one observation. What the observations tell
// outweighs it; where they tell little (a flat direction), the parameter
// stays near what was known instead of wandering to a bound.
const PriorWeight = 0.01

// Residual is the residual of one observation: the log of the ratio of
// predicted to measured value, both raised by Floor. Times differ by
// orders of magnitude between intervals and grids, so the fit weighs
// relative errors alike: predicting twice or half the measured time costs
// the same.
func Residual(predicted, measured float64) float64 {
	return math.Log((math.Max(predicted, 0) + Floor) / (math.Max(measured, 0) + Floor))
}

// Fit minimises the sum of squared residuals over the free parameters,
// starting from start, each kept within Bounds (the others stay as in
// start). The search is Nelder-Mead's simplex over the logarithms of the
// parameters: the residuals come from simulations, which have no
// derivatives, and a parameter's scale is unknown within decades.
//
// Before the search, each free parameter is moved a decade either way
// from the start: one that changes no residual is no observation's, and
// stays at the start's value (Result.Unused). After it, the fitted
// parameters are kept only when their residuals' sum of squares is below
// the starting machine's: startRes (the residuals of the caller's
// starting machine, which may be another machine than start on the
// host), or res(start) when startRes is nil; otherwise the result is the
// start, Kept.
func Fit(start Params, free []Param, res Residuals, maxEvals int, startRes []float64) (Result, error) {
	if len(free) == 0 {
		return Result{}, errors.New("fit: no parameter to fit")
	}
	r0, err := res(start)
	if err != nil {
		return Result{}, err
	}
	evals := 1
	if startRes == nil {
		startRes = r0
	}
	kept := Result{Params: start, Residuals: startRes, RMS: rms(startRes), StartRMS: rms(startRes), Kept: true}
	for _, q := range free {
		dep, n, err := depends(start, q, r0, res)
		evals += n
		if err != nil {
			return Result{}, err
		}
		if dep {
			kept.Fitted = append(kept.Fitted, q)
		} else {
			kept.Unused = append(kept.Unused, q)
		}
	}
	kept.Evals = evals
	if len(kept.Fitted) == 0 {
		return kept, nil
	}
	f := &objective{start: start, free: kept.Fitted, res: res}
	x0 := make([]float64, len(f.free))
	for i, q := range f.free {
		x0[i] = math.Log(clamp(q, start.Get(q)))
	}
	// A parameter the start does not set (0: the run work of the
	// original's model) has no prior to pull towards.
	f.prior = slices.Clone(x0)
	for i, q := range f.free {
		if !(start.Get(q) > 0) {
			f.prior[i] = math.NaN()
		}
	}
	best, err := f.minimize(x0, maxEvals)
	if err != nil {
		return Result{}, err
	}
	p := f.params(best)
	r, err := res(p)
	if err != nil {
		return Result{}, err
	}
	kept.Evals += f.evals + 1
	if sumSquares(r) >= sumSquares(startRes) {
		return kept, nil
	}
	out := kept
	out.Params, out.Residuals, out.RMS, out.Kept = p, r, rms(r), false
	return out, nil
}

// depends reports whether any residual changes when q moves a decade up
// or down from start (within Bounds), and how many evaluations it took.
func depends(start Params, q Param, r0 []float64, res Residuals) (bool, int, error) {
	n := 0
	for _, k := range []float64{10, 0.1} {
		v := clamp(q, start.Get(q)*k)
		if v == start.Get(q) {
			continue
		}
		r, err := res(start.Set(q, v))
		n++
		if err != nil {
			return false, n, err
		}
		if len(r) != len(r0) {
			return true, n, nil
		}
		for i := range r {
			if math.Abs(r[i]-r0[i]) > 1e-9 {
				return true, n, nil
			}
		}
	}
	return false, n, nil
}

func sumSquares(r []float64) float64 {
	s := 0.0
	for _, v := range r {
		s += v * v
	}
	return s
}

type objective struct {
	start Params
	free  []Param
	prior []float64 // the logs of the free parameters' start values
	res   Residuals
	evals int
}

// params maps a point of the search (logs, unbounded) to parameters
// within their bounds.
func (f *objective) params(x []float64) Params {
	p := f.start
	for i, q := range f.free {
		p = p.Set(q, clamp(q, math.Exp(x[i])))
	}
	return p
}

func (f *objective) cost(x []float64) (float64, error) {
	f.evals++
	r, err := f.res(f.params(x))
	if err != nil {
		return 0, err
	}
	s := sumSquares(r)
	for i, v := range x {
		if math.IsNaN(f.prior[i]) {
			continue
		}
		// The prior's pull, on the bounded value the simulation used.
		d := PriorWeight * (math.Log(clamp(f.free[i], math.Exp(v))) - f.prior[i])
		s += d * d
	}
	return s, nil
}

type vertex struct {
	x    []float64
	cost float64
}

// minimize is Nelder-Mead with the standard coefficients, an initial
// simplex of one decade along each axis, and restarts from the best point
// while a restart still improves (the simplex collapses early on the
// plateaus that bounds make).
func (f *objective) minimize(x0 []float64, maxEvals int) ([]float64, error) {
	best := vertex{x: x0}
	var err error
	if best.cost, err = f.cost(x0); err != nil {
		return nil, err
	}
	for restart := 0; restart < 4 && f.evals < maxEvals; restart++ {
		v, err := f.simplex(best.x, maxEvals)
		if err != nil {
			return nil, err
		}
		improved := v.cost < best.cost*(1-1e-6)
		if v.cost < best.cost {
			best = v
		}
		if !improved {
			break
		}
	}
	return best.x, nil
}

func (f *objective) simplex(x0 []float64, maxEvals int) (vertex, error) {
	n := len(x0)
	s := make([]vertex, n+1)
	for i := range s {
		x := append([]float64(nil), x0...)
		if i > 0 {
			x[i-1] += math.Ln10
		}
		c, err := f.cost(x)
		if err != nil {
			return vertex{}, err
		}
		s[i] = vertex{x, c}
	}
	at := func(c []float64, d []float64, t float64) []float64 {
		out := make([]float64, n)
		for i := range out {
			out[i] = c[i] + t*(d[i]-c[i])
		}
		return out
	}
	try := func(x []float64) (vertex, error) {
		c, err := f.cost(x)
		return vertex{x, c}, err
	}
	for f.evals < maxEvals {
		sort.Slice(s, func(i, j int) bool { return s[i].cost < s[j].cost })
		if s[n].cost-s[0].cost <= 1e-10*(1+s[0].cost) {
			break
		}
		c := make([]float64, n)
		for _, v := range s[:n] {
			for i := range c {
				c[i] += v.x[i] / float64(n)
			}
		}
		r, err := try(at(c, s[n].x, -1))
		if err != nil {
			return vertex{}, err
		}
		switch {
		case r.cost < s[0].cost:
			e, err := try(at(c, s[n].x, -2))
			if err != nil {
				return vertex{}, err
			}
			if e.cost < r.cost {
				r = e
			}
			s[n] = r
		case r.cost < s[n-1].cost:
			s[n] = r
		default:
			k, err := try(at(c, s[n].x, 0.5))
			if err != nil {
				return vertex{}, err
			}
			if k.cost < s[n].cost {
				s[n] = k
				continue
			}
			for i := 1; i <= n; i++ {
				if s[i], err = try(at(s[0].x, s[i].x, 0.5)); err != nil {
					return vertex{}, err
				}
			}
		}
	}
	sort.Slice(s, func(i, j int) bool { return s[i].cost < s[j].cost })
	return s[0], nil
}

func rms(r []float64) float64 {
	if len(r) == 0 {
		return 0
	}
	s := 0.0
	for _, v := range r {
		s += v * v
	}
	return math.Sqrt(s / float64(len(r)))
}
