package compare

import (
	"math"
	"strconv"
)

// Formats shared by the text and HTML outputs. Times get 6 decimals, not
// the reports' 4: predicted intervals are often below 0.1 ms.

// num formats a value, "-" when undefined.
func num(v float64) string {
	if math.IsNaN(v) {
		return "-"
	}
	return strconv.FormatFloat(v, 'f', 6, 64)
}

// signed formats a difference with its sign.
func signed(v float64) string {
	if math.IsNaN(v) {
		return "-"
	}
	s := strconv.FormatFloat(v, 'f', 6, 64)
	if v >= 0 {
		s = "+" + s
	}
	return s
}

// pct formats a relative error (a fraction) as a signed percentage, "-"
// when undefined.
func pct(v float64) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return "-"
	}
	s := strconv.FormatFloat(100*v, 'f', 1, 64) + "%"
	if v >= 0 {
		s = "+" + s
	}
	return s
}

// mape formats the mean absolute percentage error, unsigned.
func mape(v float64) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return "-"
	}
	return strconv.FormatFloat(100*v, 'f', 1, 64) + "%"
}

// intervals counts intervals in words: "1 interval", "5 intervals".
func intervals(n int) string {
	if n == 1 {
		return "1 interval"
	}
	return strconv.Itoa(n) + " intervals"
}
