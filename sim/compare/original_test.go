package compare

import (
	"math"
	"strings"
	"testing"

	"github.com/presage-dvm/presage/sim/result"
)

// oneInterval is a run of Main alone with the given execution time.
func oneInterval(exec float64) *result.Run {
	iv := &result.Interval{ID: 1, Type: result.Main, Line: 1, File: "a.fdv", Count: 1}
	iv.Values[result.ExecutionTime] = exec
	return &result.Run{ReportRoot: 1, Intervals: []*result.Interval{iv}}
}

// TestOriginalReport: a value equal at 4 decimals passes, one within the
// rounding slack passes as a rounding case, one beyond it is a difference,
// and so is another identity.
func TestOriginalReport(t *testing.T) {
	chars := []result.Char{result.ExecutionTime}
	for _, tc := range []struct {
		ours, orig float64
		diffs      int
		rounding   int
	}{
		{1.23454, 1.2345, 0, 0},
		{1.23455, 1.2345, 0, 1}, // rounds to 1.2346: a rounding case
		{1.2347, 1.2345, 1, 0},
	} {
		d, r := OriginalReport(oneInterval(tc.ours), oneInterval(tc.orig), chars)
		if len(d) != tc.diffs || r != tc.rounding {
			t.Errorf("%v against %v: %d diffs %q, %d rounding; want %d, %d", tc.ours, tc.orig, len(d), d, r, tc.diffs, tc.rounding)
		}
	}
	other := oneInterval(1)
	other.Intervals[0].Line = 2
	if d, _ := OriginalReport(oneInterval(1), other, chars); len(d) != 1 || !strings.Contains(d[0], "identity") {
		t.Errorf("another line: %q, want one identity difference", d)
	}
}

// TestRealityRow: the median of an even count is the mean of the middle
// two; the counts within the bound take Main rows only.
func TestRealityRow(t *testing.T) {
	row := RealityRow{Measured: []float64{3, 1, 2, 10}, Predicted: 2.5, Extended: math.NaN()}
	if row.Median() != 2.5 || row.Min() != 1 || row.Max() != 10 || row.RelPredicted() != 0 {
		t.Errorf("median %v min %v max %v rel %v; want 2.5 1 10 0", row.Median(), row.Min(), row.Max(), row.RelPredicted())
	}
	deep := row
	deep.Depth = 1
	r := Reality{Rows: []RealityRow{row, deep}}
	if p, e, n := r.Within(0.1); p != 1 || e != 0 || n != 1 {
		t.Errorf("within: %d %d of %d; want 1 0 of 1", p, e, n)
	}
}
