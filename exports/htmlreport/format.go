package htmlreport

import (
	"math"
	"strconv"
)

// num formats a value as the original does: fixed notation, 4 decimals
// (so -0.0000 can occur, as with C++ streams).
func num(v float64) string {
	return strconv.FormatFloat(v, 'f', 4, 64)
}

// count formats an operation count, stored as a float, as an integer.
func count(v float64) string {
	return strconv.FormatFloat(math.Round(v), 'f', 0, 64)
}

// share returns part/whole as a percentage clamped to [0, 100], or -1 when
// it is undefined (no whole, or not finite values).
func share(part, whole float64) float64 {
	if !(whole > 0) || math.IsNaN(part) || math.IsInf(whole, 0) {
		return -1
	}
	return math.Round(1000*math.Min(math.Max(part/whole, 0), 1)) / 10
}

// seconds formats an override of the machine file in microseconds, the
// unit of Predictor.par, or says it comes from the file.
func seconds(v float64) string {
	if v == 0 {
		return "from the machine file"
	}
	return strconv.FormatFloat(v*1e6, 'g', -1, 64) + " µs"
}
