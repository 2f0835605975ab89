package htmlreport

import (
	"math"
	"strconv"

	"github.com/presage-dvm/presage/exports/internal/numfmt"
)

// fromFile is what a machine-file override that is not set shows.
const fromFile = "from the machine file"

// num formats a value as the original does: fixed notation, 4 decimals
// (so -0.0000 can occur, as with C++ streams); NaN as strconv writes it.
func num(v float64) string { return numfmt.Fixed(v, 4, "NaN") }

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

// seconds formats an override of a machine-file time in microseconds.
func seconds(v float64) string { return numfmt.Micros(v, fromFile) }

// power formats a processor power override.
func power(v float64) string { return numfmt.Override(v, fromFile) }
