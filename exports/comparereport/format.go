package comparereport

import (
	"strconv"

	"github.com/presage-dvm/presage/exports/internal/numfmt"
	"github.com/presage-dvm/presage/sim/compare"
)

// Formats shared by the text and HTML outputs. Times get 6 decimals, not
// the reports' 4: predicted intervals are often below 0.1 ms. An undefined
// value is "-".

// num formats a value.
func num(v float64) string { return numfmt.Fixed(numfmt.Unsigned(v, 6), 6, "-") }

// signed formats a difference with its sign.
func signed(v float64) string { return numfmt.Signed(numfmt.Unsigned(v, 6), 6, "-") }

// pct formats a relative error (a fraction) as a signed percentage.
func pct(v float64) string { return numfmt.SignedPercent(numfmt.Unsigned(v, 3), "-") }

// mape formats the mean absolute percentage error, unsigned.
func mape(v float64) string { return numfmt.Percent(v, "-") }

// intervals counts intervals in words: "1 interval", "5 intervals".
func intervals(n int) string {
	if n == 1 {
		return "1 interval"
	}
	return strconv.Itoa(n) + " intervals"
}

// machineRows puts the machine facts of the two sides side by side, one
// row per label (label, measured, predicted), labels in order of first
// appearance.
func machineRows(c *compare.Comparison) [][]string {
	var labels []string
	vals := map[string]*[2]string{}
	for side, facts := range [][]compare.Fact{c.Measured.MachineFacts, c.Predicted.MachineFacts} {
		for _, f := range facts {
			v := vals[f.Label]
			if v == nil {
				v = &[2]string{"-", "-"}
				vals[f.Label] = v
				labels = append(labels, f.Label)
			}
			v[side] = f.Value
		}
	}
	rows := make([][]string, len(labels))
	for i, l := range labels {
		rows[i] = []string{l, vals[l][0], vals[l][1]}
	}
	return rows
}
