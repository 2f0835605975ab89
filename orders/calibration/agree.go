package calibration

import (
	"cmp"
	"slices"
)

// Agreement is how far several calibrations of one machine agree on one
// block and α: the constant each of them prices it at (Point.Median, in
// the order of the calibrations).
type Agreement struct {
	Block, Machine string
	Alpha          []float64
	F              float64
	Medians        []float64
}

// Spread is how much higher the largest of the medians is than the
// smallest, in proportion: 0.05 when the calibrations agree within 5%.
func (a Agreement) Spread() float64 {
	return slices.Max(a.Medians)/slices.Min(a.Medians) - 1
}

// Agree returns, for each block, machine and α that every one of cals
// (the rows of calibrations, each from its own process) timed alone, the
// median c each priced it at, sorted by block, machine and f.
func Agree(cals [][]Row) []Agreement {
	type key struct{ block, machine, alpha string }
	byKey := map[key]*Agreement{}
	for i, rows := range cals {
		for _, st := range Analyze(rows, DefaultThresholds) {
			for _, p := range st.Points {
				k := key{st.Block, st.Machine, formatAlpha(p.Alpha)}
				a := byKey[k]
				if a == nil {
					if i > 0 {
						continue // not in the first: not in every one
					}
					a = &Agreement{Block: st.Block, Machine: st.Machine, Alpha: p.Alpha, F: p.F}
					byKey[k] = a
				}
				if len(a.Medians) == i {
					a.Medians = append(a.Medians, p.Median)
				}
			}
		}
	}
	var out []Agreement
	for _, a := range byKey {
		if len(a.Medians) == len(cals) {
			out = append(out, *a)
		}
	}
	slices.SortFunc(out, func(a, b Agreement) int {
		return cmp.Or(cmp.Compare(a.Block, b.Block), cmp.Compare(a.Machine, b.Machine), cmp.Compare(a.F, b.F),
			cmp.Compare(formatAlpha(a.Alpha), formatAlpha(b.Alpha)))
	})
	return out
}
