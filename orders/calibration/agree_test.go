package calibration

import (
	"math"
	"testing"
)

// TestAgree: the medians of several calibrations, block by block and α by
// α, only those every calibration timed, and their spread.
func TestAgree(t *testing.T) {
	cal := func(c float64, extra bool) []Row {
		rows := timed("mm", []float64{64, 128}, 3, func(f float64, _ int) float64 { return c * f })
		if extra {
			rows = append(rows, Row{Block: "only", F: 1, Seconds: 1, Machine: "m1", Copies: 1})
		}
		return rows
	}
	got := Agree([][]Row{cal(1, true), cal(1.05, false), cal(1.02, true)})
	if len(got) != 2 || got[0].Block != "mm" || got[0].Alpha[0] != 64 || got[1].Alpha[0] != 128 {
		t.Fatalf("agreements %+v, want mm at 64 and 128 only", got)
	}
	for _, a := range got {
		if len(a.Medians) != 3 || a.Medians[1] != 1.05 || math.Abs(a.Spread()-0.05) > 1e-12 {
			t.Errorf("%+v: spread %v, want medians 1, 1.05, 1.02 and a spread of 5%%", a, a.Spread())
		}
	}
}
