package compare

import (
	"strconv"

	"github.com/presage-dvm/presage/exports/numfmt"
)

// Formats shared by the text and HTML outputs. Times get 6 decimals, not
// the reports' 4: predicted intervals are often below 0.1 ms. An undefined
// value is "-".

// num formats a value.
func num(v float64) string { return numfmt.Fixed(v, 6, "-") }

// signed formats a difference with its sign.
func signed(v float64) string { return numfmt.Signed(v, 6, "-") }

// pct formats a relative error (a fraction) as a signed percentage.
func pct(v float64) string { return numfmt.SignedPercent(v, "-") }

// mape formats the mean absolute percentage error, unsigned.
func mape(v float64) string { return numfmt.Percent(v, "-") }

// intervals counts intervals in words: "1 interval", "5 intervals".
func intervals(n int) string {
	if n == 1 {
		return "1 interval"
	}
	return strconv.Itoa(n) + " intervals"
}
