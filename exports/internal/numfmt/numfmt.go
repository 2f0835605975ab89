// Package numfmt formats numbers for the pages people read (the HTML run
// report, the comparison, the sweep report): fixed decimals, significant
// digits, percentages and machine-file overrides. The reports differ in
// decimals and in the mark of an undefined value, so they pass them in.
package numfmt

import (
	"math"
	"strconv"
)

// Fixed formats v in fixed notation with decimals digits after the point,
// or returns undef when v is NaN.
func Fixed(v float64, decimals int, undef string) string {
	if math.IsNaN(v) {
		return undef
	}
	return strconv.FormatFloat(v, 'f', decimals, 64)
}

// Signed is Fixed with a "+" before values that are not negative, for
// differences.
func Signed(v float64, decimals int, undef string) string {
	if math.IsNaN(v) {
		return undef
	}
	return plus(v, strconv.FormatFloat(v, 'f', decimals, 64))
}

// Sig formats v with digits significant digits, or returns undef when v is
// NaN.
func Sig(v float64, digits int, undef string) string {
	if math.IsNaN(v) {
		return undef
	}
	return strconv.FormatFloat(v, 'g', digits, 64)
}

// Percent formats a fraction as a percentage with one decimal ("25.0%"),
// or returns undef when it is not finite.
func Percent(frac float64, undef string) string {
	if math.IsNaN(frac) || math.IsInf(frac, 0) {
		return undef
	}
	return strconv.FormatFloat(100*frac, 'f', 1, 64) + "%"
}

// SignedPercent is Percent with a "+" before fractions that are not
// negative, for relative errors.
func SignedPercent(frac float64, undef string) string {
	if math.IsNaN(frac) || math.IsInf(frac, 0) {
		return undef
	}
	return plus(frac, Percent(frac, undef))
}

// Micros formats an override of a machine-file time given in seconds in
// microseconds, the unit of Predictor.par. Zero means no override: the
// value comes from the file, which fromFile says.
func Micros(seconds float64, fromFile string) string {
	if seconds == 0 {
		return fromFile
	}
	return strconv.FormatFloat(seconds*1e6, 'g', -1, 64) + " µs"
}

// Override formats an override of a machine-file value in the shortest
// form that reads back exactly; zero means none and gives fromFile.
func Override(v float64, fromFile string) string {
	if v == 0 {
		return fromFile
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}

// Unsigned returns v, or 0 when v rounds to zero at decimals decimals:
// a residue of −1e-19 s shows as 0.000000 (+0.000000 signed) rather than
// −0.000000. The original's report keeps its "-0.0000", so only the pages
// of our own pass their values through it.
func Unsigned(v float64, decimals int) float64 {
	if math.Abs(v) < 0.5*math.Pow10(-decimals) {
		return 0
	}
	return v
}

func plus(v float64, s string) string {
	if v >= 0 {
		return "+" + s
	}
	return s
}
