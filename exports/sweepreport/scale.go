package sweepreport

import (
	"math"
	"strconv"
	"strings"
)

// scale maps a data interval [Lo, Hi] onto a pixel interval [P0, P1],
// linearly or logarithmically. P1 < P0 is allowed (a y axis grows upwards).
type scale struct {
	Lo, Hi float64
	P0, P1 float64
	// Base of a logarithmic scale (2 or 10), which decides its ticks; 0 for
	// a linear scale.
	Base float64
}

// Pos returns the pixel of v. Values outside the domain extrapolate; a
// degenerate domain puts every value in the middle.
func (s scale) Pos(v float64) float64 {
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

// Valid says whether v can be drawn on the scale: finite, and positive on a
// logarithmic one.
func (s scale) Valid(v float64) bool {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return false
	}
	return s.Base == 0 || v > 0
}

// Ticks returns the tick values inside the domain: powers of the base on a
// logarithmic scale (every other one when there would be more than 11,
// 1-2-5 steps when there would be fewer than 3), round steps on a linear
// one.
func (s scale) Ticks() []float64 {
	if s.Base == 0 {
		return niceTicks(s.Lo, s.Hi, 5)
	}
	ts := powerTicks(s.Lo, s.Hi, s.Base)
	for len(ts) > 11 {
		thin := ts[:0:0]
		for i := 0; i < len(ts); i += 2 {
			thin = append(thin, ts[i])
		}
		ts = thin
	}
	if len(ts) >= 3 {
		return ts
	}
	if ts125 := ticks125(s.Lo, s.Hi); len(ts125) >= 2 && len(ts125) <= 12 {
		return ts125
	}
	if len(ts) >= 2 {
		return ts
	}
	return niceTicks(s.Lo, s.Hi, 4)
}

// eps absorbs rounding when comparing tick values with domain bounds.
const eps = 1e-9

// powerTicks returns the powers of base within [lo, hi].
func powerTicks(lo, hi, base float64) []float64 {
	if !(lo > 0) || !(hi >= lo) {
		return nil
	}
	var ts []float64
	k := math.Ceil(math.Log(lo)/math.Log(base) - eps)
	for ; ; k++ {
		v := math.Pow(base, k)
		if v > hi*(1+eps) {
			break
		}
		ts = append(ts, v)
	}
	return ts
}

// ticks125 returns the values 1, 2 and 5 times a power of ten within [lo, hi].
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

// niceStep returns a step of 1, 2, 2.5 or 5 times a power of ten that cuts
// span into about n parts.
func niceStep(span float64, n int) float64 {
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

// niceTicks returns the multiples of a nice step within [lo, hi].
func niceTicks(lo, hi float64, n int) []float64 {
	if hi < lo || math.IsNaN(lo) || math.IsNaN(hi) {
		return nil
	}
	if hi == lo {
		return []float64{lo}
	}
	step := niceStep(hi-lo, n)
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

// niceCeil rounds v > 0 up to a multiple of a nice step.
func niceCeil(v float64) float64 {
	if !(v > 0) {
		return 1
	}
	step := niceStep(v, 5)
	return math.Ceil(v/step-eps) * step
}

// logDomain widens [lo, hi] (lo > 0) outwards to powers of base; with base
// 10 it stops at 1, 2 or 5 times a power of ten, which wastes less room.
func logDomain(lo, hi, base float64) (float64, float64) {
	if base == 10 {
		return floor125(lo), ceil125(hi)
	}
	l := math.Pow(base, math.Floor(math.Log(lo)/math.Log(base)+eps))
	h := math.Pow(base, math.Ceil(math.Log(hi)/math.Log(base)-eps))
	if h == l {
		l, h = l/base, h*base
	}
	return l, h
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

// tickLabel formats a tick value shortly: whole numbers below a million
// in full (processor counts such as 1024), others with 3 significant
// digits and exponents without padding ("1e-5", not "1e-05").
func tickLabel(v float64) string {
	if v == math.Trunc(v) && math.Abs(v) < 1e6 {
		return strconv.FormatFloat(cleanZero(v), 'f', 0, 64)
	}
	s := strconv.FormatFloat(v, 'g', 3, 64)
	if mant, exp, ok := strings.Cut(s, "e"); ok {
		sign := exp[:1]
		digits := strings.TrimLeft(exp[1:], "0")
		if sign == "+" {
			sign = ""
		}
		s = mant + "e" + sign + digits
	}
	return s
}
