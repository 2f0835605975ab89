package orders

import (
	"bytes"
	"testing"

	"github.com/presage-dvm/presage/orders/calibration"
)

// TestStable: a median is stable when the order statistics bounding its
// 95% interval lie within the precision; too few runs never are.
func TestStable(t *testing.T) {
	rows := func(seconds ...float64) []calibration.Row {
		var out []calibration.Row
		for i, s := range seconds {
			out = append(out, calibration.Row{Block: "b", F: 1, Seconds: s, Machine: "m", Rep: i})
		}
		return out
	}
	tight := []float64{1, 1.01, 0.99, 1, 1.005, 0.995, 1, 1.01, 0.99, 1}
	loose := []float64{1, 1.3, 0.7, 1, 1.2, 0.8, 1, 1.3, 0.7, 1}
	for _, tc := range []struct {
		name    string
		seconds []float64
		want    bool
	}{
		{"ten runs within 1%", tight, true},
		{"ten runs within 30%", loose, false},
		{"three runs", tight[:3], false},
	} {
		if got := stable(rows(tc.seconds...), 0.02); got != tc.want {
			t.Errorf("%s: stable %v, want %v", tc.name, got, tc.want)
		}
	}
}

// TestCalibrateRepeatsUntilStable: a block whose runs vary is repeated
// up to MaxReps; with Contention, each test is also timed by two copies
// at once, rows of Copies 2; every row has its wall time.
func TestCalibrateRepeatsUntilStable(t *testing.T) {
	var buf bytes.Buffer
	cfg := Config{Mode: ModeCalibrate, Reps: 3, MaxReps: 6, Precision: 1e-9, Contention: true, Machine: "m", Output: &buf,
		Tests: []TestCase{Test("eight", func(c *Ctx) error { _, err := Make(c, sum, numbers(8)).Get(c); return err })}}
	if _, _, err := Main(cfg, sum, nil); err != nil {
		t.Fatal(err)
	}
	rows, err := calibration.ReadAll(&buf, "calibration")
	if err != nil {
		t.Fatal(err)
	}
	alone, copies := 0, 0
	for _, r := range rows {
		if r.Wall <= 0 {
			t.Errorf("row %+v without its wall time", r)
		}
		if r.Block != "add" {
			continue
		}
		switch r.Copies {
		case 1:
			alone++
		case 2:
			copies++
		default:
			t.Errorf("row %+v", r)
		}
	}
	if alone != 2*6 {
		t.Errorf("%d add blocks alone, want 12: 6 repetitions (never stable within 1e-9) of 2 blocks", alone)
	}
	if copies != 2*2*3 {
		t.Errorf("%d add blocks by 2 copies, want 12: 3 repetitions of 2 copies of 2 blocks", copies)
	}
}
