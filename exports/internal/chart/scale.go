package chart

import (
	"math"
	"slices"
)

// Scale maps a data interval [Lo, Hi] onto a pixel interval [P0, P1],
// linearly or logarithmically. P1 < P0 is allowed (a y axis grows
// upwards). The charts set the pixels; a report sets the domain.
type Scale struct {
	Lo, Hi float64
	P0, P1 float64
	// Base of a logarithmic scale (2 or 10), which decides its ticks; 0
	// for a linear scale.
	Base float64
}

// Pos returns the pixel of v. Values outside the domain extrapolate; a
// degenerate domain puts every value in the middle.
func (s Scale) Pos(v float64) float64 {
	var t float64
	switch {
	case s.Hi == s.Lo:
		t = 0.5
	case s.Base > 0:
		t = math.Log(v/s.Lo) / math.Log(s.Hi/s.Lo)
	default:
		t = (v - s.Lo) / (s.Hi - s.Lo)
	}
	return s.P0 + t*(s.P1-s.P0)
}

// Clamp returns v within the domain.
func (s Scale) Clamp(v float64) float64 { return math.Max(s.Lo, math.Min(s.Hi, v)) }

// Valid says whether v can be drawn on the scale: finite, and positive on
// a logarithmic one.
func (s Scale) Valid(v float64) bool {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return false
	}
	return s.Base == 0 || v > 0
}

// maxLogTicks bounds the powers a logarithmic axis labels.
const maxLogTicks = 11

// Ticks returns the tick values inside the domain: powers of the base on
// a logarithmic scale (every second or fourth power when there would be
// more than 11, so that 1 stays among them; 1-2-5 steps when there would
// be fewer than 3), round steps on a linear one, about one per 100
// pixels and at least 5.
func (s Scale) Ticks() []float64 {
	if s.Base == 0 {
		return NiceTicks(s.Lo, s.Hi, max(5, int(math.Abs(s.P1-s.P0)/100)))
	}
	ts := powerTicks(s.Lo, s.Hi, s.Base, maxLogTicks)
	if len(ts) >= 3 {
		return ts
	}
	if ts125 := ticks125(s.Lo, s.Hi); len(ts125) >= 2 && len(ts125) <= 12 {
		return ts125
	}
	if len(ts) >= 2 {
		return ts
	}
	return NiceTicks(s.Lo, s.Hi, 4)
}

// eps absorbs rounding when comparing tick values with domain bounds.
const eps = 1e-9

// powerTicks returns the powers of base within [lo, hi], at most n: when
// there are more, those whose exponent is a multiple of 2, 4, 8… .
func powerTicks(lo, hi, base float64, n int) []float64 {
	if !(lo > 0) || !(hi >= lo) {
		return nil
	}
	k0 := int(math.Ceil(math.Log(lo)/math.Log(base) - eps))
	k1 := int(math.Floor(math.Log(hi)/math.Log(base) + eps))
	for step := 1; ; step *= 2 {
		var ts []float64
		for k := k0; k <= k1; k++ {
			if k%step == 0 {
				ts = append(ts, math.Pow(base, float64(k)))
			}
		}
		if len(ts) <= n || step > k1-k0 {
			return ts
		}
	}
}

// ticks125 returns the values 1, 2 and 5 times a power of ten within
// [lo, hi].
func ticks125(lo, hi float64) []float64 {
	if !(lo > 0) || !(hi >= lo) {
		return nil
	}
	var ts []float64
	for k := math.Floor(math.Log10(lo)); math.Pow(10, k) <= hi*(1+eps); k++ {
		for _, m := range []float64{1, 2, 5} {
			v := m * math.Pow(10, k)
			if v >= lo*(1-eps) && v <= hi*(1+eps) {
				ts = append(ts, v)
			}
		}
	}
	return ts
}

// NiceStep returns a step of 1, 2, 2.5 or 5 times a power of ten that
// cuts span into about n parts.
func NiceStep(span float64, n int) float64 {
	if !(span > 0) || n < 1 {
		return 1
	}
	raw := span / float64(n)
	mag := math.Pow(10, math.Floor(math.Log10(raw)))
	switch f := raw / mag; {
	case f <= 1:
		return mag
	case f <= 2:
		return 2 * mag
	case f <= 2.5:
		return 2.5 * mag
	case f <= 5:
		return 5 * mag
	default:
		return 10 * mag
	}
}

// NiceTicks returns the multiples of a nice step (about n of them)
// within [lo, hi].
func NiceTicks(lo, hi float64, n int) []float64 {
	if hi < lo || math.IsNaN(lo) || math.IsNaN(hi) {
		return nil
	}
	if hi == lo {
		return []float64{lo}
	}
	step := NiceStep(hi-lo, n)
	var ts []float64
	for i := math.Ceil(lo/step - eps); i*step <= hi+step*eps; i++ {
		ts = append(ts, cleanZero(i*step))
	}
	return ts
}

// cleanZero turns -0 into 0 so that it is not printed with a sign.
func cleanZero(v float64) float64 {
	if v == 0 {
		return 0
	}
	return v
}

// NiceCeil rounds v > 0 up to a multiple of a nice step; 1 otherwise.
func NiceCeil(v float64) float64 {
	if !(v > 0) {
		return 1
	}
	step := NiceStep(v, 5)
	return math.Ceil(v/step-eps) * step
}

// LogDomain widens [lo, hi] (lo > 0) outwards to powers of base; with
// base 10 it stops at 1, 2 or 5 times a power of ten, which wastes less
// room. A single value is widened by a factor of base either way.
func LogDomain(lo, hi, base float64) (float64, float64) {
	var l, h float64
	if base == 10 {
		l, h = floor125(lo), ceil125(hi)
	} else {
		l = math.Pow(base, math.Floor(math.Log(lo)/math.Log(base)+eps))
		h = math.Pow(base, math.Ceil(math.Log(hi)/math.Log(base)-eps))
	}
	if h == l {
		l, h = l/base, h*base
	}
	return l, h
}

// LogScale is the logarithmic scale of the given base over the positive
// values of vs, widened by LogDomain; over [1, base] when none is
// positive.
func LogScale(base float64, vs ...float64) Scale {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, v := range vs {
		if v > 0 && !math.IsInf(v, 0) {
			lo, hi = math.Min(lo, v), math.Max(hi, v)
		}
	}
	if lo > hi {
		lo, hi = 1, base
	}
	l, h := LogDomain(lo, hi, base)
	return Scale{Lo: l, Hi: h, Base: base}
}

// CountScale is the log2 axis of counts of processors, nodes or cores,
// with its ticks: the counts themselves when there are at most 12, the
// scale's powers of two otherwise (nil).
func CountScale(counts []int) (Scale, []float64) {
	cs := slices.Clone(counts)
	slices.Sort(cs)
	cs = slices.Compact(cs)
	if len(cs) == 0 {
		return Scale{Lo: 1, Hi: 2, Base: 2}, nil
	}
	lo, hi := float64(cs[0]), float64(cs[len(cs)-1])
	if lo == hi {
		lo, hi = lo/2, hi*2
	}
	s := Scale{Lo: lo, Hi: hi, Base: 2}
	if len(cs) > 12 {
		return s, nil
	}
	ticks := make([]float64, len(cs))
	for i, c := range cs {
		ticks[i] = float64(c)
	}
	return s, ticks
}

func floor125(v float64) float64 {
	mag := math.Pow(10, math.Floor(math.Log10(v)+eps))
	for _, m := range []float64{5, 2, 1} {
		if m*mag <= v*(1+eps) {
			return m * mag
		}
	}
	return mag
}

func ceil125(v float64) float64 {
	mag := math.Pow(10, math.Floor(math.Log10(v)+eps))
	for _, m := range []float64{1, 2, 5, 10} {
		if m*mag >= v*(1-eps) {
			return m * mag
		}
	}
	return 10 * mag
}
