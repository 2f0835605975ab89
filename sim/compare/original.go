package compare

import (
	"fmt"
	"math"

	"github.com/presage-dvm/presage/sim/result"
)

// roundingSlack is how far a value may be from the original's printed one
// and still count as the same number: the original prints 4 decimals of
// a value computed in another order of operations, so a value within
// 0.6e-4 that rounds the other way is a rounding case, as the golden test
// of sim (TestGoldenPredictor) accepts it.
const roundingSlack = 0.6e-4

// OriginalReport holds a predicted run against the run the original
// Predictor's report of the same trace, machine and grid shows
// (ingest/predhtml): the intervals from each report root in pre-order,
// their identity (type, level, count, line, expression, file) and every
// value the report prints, at 4 decimals. The grid is the caller's to
// match (the report's file name), as in the golden test: the original's
// reports of task-parallel programs print 1 whatever the grid. It returns one line per
// difference, and the number of values accepted as rounding cases.
func OriginalReport(ours, orig *result.Run, chars []result.Char) (diffs []string, rounding int) {
	a, b := ours.Subtree(ours.ReportRoot), orig.Subtree(orig.ReportRoot)
	if len(a) != len(b) {
		diffs = append(diffs, fmt.Sprintf("%d intervals from the report root, original %d", len(a), len(b)))
	}
	for i := 0; i < len(a) && i < len(b); i++ {
		d, r := sameInterval(a[i], b[i], chars)
		diffs = append(diffs, d...)
		rounding += r
	}
	return diffs, rounding
}

// sameInterval compares one interval's identity and values with the
// original's.
func sameInterval(ours, orig *result.Interval, chars []result.Char) (diffs []string, rounding int) {
	id := fmt.Sprintf("interval %s line %d (level %d)", orig.Type, orig.Line, orig.Level)
	if ours.Type != orig.Type || ours.Level != orig.Level || ours.Line != orig.Line || ours.File != orig.File ||
		ours.Count != orig.Count || !sameExpr(ours.Expr, orig.Expr) {
		return []string{fmt.Sprintf("%s: identity %s level %d line %d file %s count %d differs", id,
			ours.Type, ours.Level, ours.Line, ours.File, ours.Count)}, 0
	}
	for _, c := range chars {
		got, want := ours.Values[c], orig.Values[c]
		if math.Abs(math.Round(got*1e4)/1e4-want) < 1e-9 {
			continue
		}
		if math.Abs(got-want) <= roundingSlack {
			rounding++
			continue
		}
		diffs = append(diffs, fmt.Sprintf("%s %v: ours %.6f, original %.4f", id, c, got, want))
	}
	return diffs, rounding
}

func sameExpr(a, b *int64) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}
