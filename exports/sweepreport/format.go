package sweepreport

import "github.com/presage-dvm/presage/exports/internal/numfmt"

// undef marks an undefined value.
const undef = "–"

// num formats a time or ratio as the other reports do: 4 decimals.
func num(v float64) string { return numfmt.Fixed(v, 4, undef) }

// short formats a value with 4 significant digits, for tooltips and tables
// of values of very different magnitudes.
func short(v float64) string { return numfmt.Sig(v, 4, undef) }

// micro formats an override of a machine-file time, or says it comes from
// the file.
func micro(v float64) string { return numfmt.Micros(v, "from file") }

// power formats a processor power override.
func power(v float64) string { return numfmt.Override(v, "from file") }
