package orders

import (
	"bytes"
	"maps"
	goruntime "runtime"
	"slices"
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
	cpus := max(len(calibrationCPUs()), 1)
	if alone != 2*6*cpus {
		t.Errorf("%d add blocks alone, want %d: 6 repetitions (never stable within 1e-9) of 2 blocks on each of %d CPUs", alone, 2*6*cpus, cpus)
	}
	if copies != 2*2*3 {
		t.Errorf("%d add blocks by 2 copies, want 12: 3 repetitions of 2 copies of 2 blocks", copies)
	}
}

// TestCalibratePinsEveryCPU: the blocks alone are timed on every CPU the
// process may run on, as many times on each, and their rows say which;
// the runtime's costs and the copies at once are not pinned.
func TestCalibratePinsEveryCPU(t *testing.T) {
	var buf bytes.Buffer
	cfg := Config{Mode: ModeCalibrate, Reps: 2, MaxReps: 2, Contention: true, Machine: "m", Output: &buf,
		Tests: []TestCase{Test("eight", func(c *Ctx) error { _, err := Make(c, sum, numbers(8)).Get(c); return err })}}
	if _, _, err := Main(cfg, sum, nil); err != nil {
		t.Fatal(err)
	}
	rows, err := calibration.ReadAll(&buf, "calibration")
	if err != nil {
		t.Fatal(err)
	}
	cpus := calibrationCPUs()
	byCPU := map[int]int{}
	for _, r := range rows {
		alone := r.Copies <= 1 && r.Block != OrderBlock && r.Block != WaitBlock
		switch {
		case alone && len(cpus) > 0 && !slices.Contains(cpus, r.CPU):
			t.Errorf("row %+v: CPU %d, want one of %v", r, r.CPU, cpus)
		case !alone && r.CPU != -1:
			t.Errorf("row %+v: pinned, want not (-1)", r)
		}
		if alone && r.Block == "add" {
			byCPU[r.CPU]++
		}
	}
	want := map[int]int{-1: 2 * 2}
	if len(cpus) > 0 {
		want = map[int]int{}
		for _, c := range cpus {
			want[c] = 2 * 2 // 2 repetitions of 2 blocks
		}
	}
	if !maps.Equal(byCPU, want) {
		t.Errorf("add blocks alone by CPU %v, want %v", byCPU, want)
	}
}

// TestPinnedRestoresTheThread: after a pinned round, the thread may run
// on every CPU it could before.
func TestPinnedRestoresTheThread(t *testing.T) {
	cpus := calibrationCPUs()
	if len(cpus) < 2 {
		t.Skip("needs two CPUs to pin to one")
	}
	m := &calibrateMode{cpu: -1}
	var during []int
	var marked int
	goruntime.LockOSThread() // the same thread before, in and after pinned
	err := m.pinned(cpus[1], func() error { during, marked = calibrationCPUs(), m.cpu; return nil })
	after := calibrationCPUs()
	goruntime.UnlockOSThread()
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(during, cpus[1:2]) || marked != cpus[1] || m.cpu != -1 {
		t.Errorf("while pinned to %d the thread could run on %v, rows marked %d (after: %d)", cpus[1], during, marked, m.cpu)
	}
	if !slices.Equal(after, cpus) {
		t.Errorf("after: CPUs %v, want %v", after, cpus)
	}
}
