package calibration

import (
	"math"
	"slices"
)

// Constants price the blocks of one machine: the runtime's record mode
// prices a block of estimate f at c(f)·f seconds.
type Constants map[string]Pricing

// Pricing is what the calibration knows of one block: its constant as a
// function of f, and how much slower it runs with copies of it at once on
// the machine's cores (empty when that was not timed).
type Pricing struct {
	Curve    Curve
	Slowdown []SlowdownPoint
}

// Curve is a block's constant c as a function of its estimate f: the
// median c of each calibrated α, in increasing f. The seed prices every α
// by one constant c̄, the mean over all of them; but a block's c is seldom
// flat (a small tile pays its loop overheads, a large one its cache
// misses: potrf's c halves from 32×32 to 80×80 tiles here), so the mean
// over α misprices the α the program runs. Price reads c at the program's
// f instead: between two calibrated α it interpolates linearly in log f,
// outside them it keeps the nearest α's c (docs/orders-sim.md, "What the
// calibration measures beyond the blocks").
type Curve []CurvePoint

// CurvePoint is c at one calibrated f.
type CurvePoint struct{ F, C float64 }

// Flat returns the pricing of one constant c for every f.
func Flat(c float64) Pricing { return Pricing{Curve: Curve{{F: 1, C: c}}} }

// At returns c at estimate f.
func (cv Curve) At(f float64) float64 {
	switch {
	case len(cv) == 0:
		return math.NaN()
	case f <= cv[0].F:
		return cv[0].C
	case f >= cv[len(cv)-1].F:
		return cv[len(cv)-1].C
	}
	i, _ := slices.BinarySearchFunc(cv, f, func(p CurvePoint, f float64) int {
		switch {
		case p.F < f:
			return -1
		case p.F > f:
			return 1
		}
		return 0
	})
	if cv[i].F == f {
		return cv[i].C
	}
	lo, hi := cv[i-1], cv[i]
	t := (math.Log(f) - math.Log(lo.F)) / (math.Log(hi.F) - math.Log(lo.F))
	return lo.C + t*(hi.C-lo.C)
}

// ConstantsOf returns the constants measured on machine: each block's
// curve of the medians of its points, and its slowdown.
func ConstantsOf(stats []Stat, machine string) Constants {
	c := make(Constants)
	for _, s := range stats {
		if s.Machine == machine {
			c[s.Block] = Pricing{Curve: s.Curve(), Slowdown: s.Slowdown}
		}
	}
	return c
}

// Curve returns the block's curve: the median c of each point.
func (s Stat) Curve() Curve { return s.CurveOf(func(p Point) float64 { return p.Median }) }

// CurveOf returns the curve of c(p) over the block's points, one per f
// (the mean of c over several α of the same f).
func (s Stat) CurveOf(c func(Point) float64) Curve {
	var cv Curve
	for i := 0; i < len(s.Points); {
		j, sum := i, 0.0
		for ; j < len(s.Points) && s.Points[j].F == s.Points[i].F; j++ {
			sum += c(s.Points[j])
		}
		cv = append(cv, CurvePoint{F: s.Points[i].F, C: sum / float64(j-i)})
		i = j
	}
	return cv
}

// Price returns the seconds a block of estimate f takes; ok is false for
// a block that was not calibrated.
func (c Constants) Price(block string, f float64) (seconds float64, ok bool) {
	p, ok := c[block]
	if !ok {
		return 0, false
	}
	return p.Curve.At(f) * f, true
}

// SlowdownAt returns the slowdown of the block with k copies at once:
// 1 for k ≤ 1, linear in k between the copies timed, the last timed
// beyond them, 1 when none was.
func (p Pricing) SlowdownAt(k int) float64 {
	if k <= 1 {
		return 1
	}
	s, prevK, prevS := 1.0, 1, 1.0
	for _, q := range p.Slowdown {
		if k <= q.Copies {
			t := float64(k-prevK) / float64(q.Copies-prevK)
			return prevS + t*(q.S-prevS)
		}
		prevK, prevS, s = q.Copies, q.S, q.S
	}
	return s
}
