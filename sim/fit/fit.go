package fit

import (
	"errors"
	"math"
	"sort"
)

// Residuals returns the residuals of the observations under parameters p
// (Residual of every predicted and measured value): the fit minimises the
// sum of their squares.
type Residuals func(p Params) ([]float64, error)

// Result is the outcome of Fit.
type Result struct {
	Params    Params
	Residuals []float64 // at Params
	RMS       float64   // root mean square of Residuals
	Evals     int       // evaluations of the residuals
}

// Floor is the time below which values count as equal in Residual:
// intervals of a few microseconds are timer noise, and a zero measured
// time must not make an infinite residual.
const Floor = 1e-5

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
func Fit(start Params, free []Param, res Residuals, maxEvals int) (Result, error) {
	if len(free) == 0 {
		return Result{}, errors.New("fit: no parameter to fit")
	}
	f := &objective{start: start, free: free, res: res}
	x0 := make([]float64, len(free))
	for i, q := range free {
		x0[i] = math.Log(clamp(q, start.Get(q)))
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
	return Result{Params: p, Residuals: r, RMS: rms(r), Evals: f.evals + 1}, nil
}

type objective struct {
	start Params
	free  []Param
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
	s := 0.0
	for _, v := range r {
		s += v * v
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
