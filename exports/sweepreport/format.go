package sweepreport

import (
	"math"
	"strconv"
)

// num formats a time or ratio as the other reports do: 4 decimals.
func num(v float64) string {
	if math.IsNaN(v) {
		return "–"
	}
	return strconv.FormatFloat(v, 'f', 4, 64)
}

// short formats a value with 4 significant digits, for tooltips and tables
// of values of very different magnitudes.
func short(v float64) string {
	if math.IsNaN(v) {
		return "–"
	}
	return strconv.FormatFloat(v, 'g', 4, 64)
}

// micro formats an override of the machine file in microseconds, the unit
// of Predictor.par, or says it comes from the file.
func micro(v float64) string {
	if v == 0 {
		return "from file"
	}
	return strconv.FormatFloat(v*1e6, 'g', -1, 64) + " µs"
}

// power formats a processor power override.
func power(v float64) string {
	if v == 0 {
		return "from file"
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}
