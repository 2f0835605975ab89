package store_test

import (
	"context"
	"fmt"
	"reflect"
	"testing"

	"github.com/presage-dvm/presage/internal/storetest"
	"github.com/presage-dvm/presage/orders/calibration"
	"github.com/presage-dvm/presage/schema/store"
)

// TestCalibrationKeepsCPUsAndFaults: a calibration's rows come back with
// the CPU each run was pinned to and its page faults, and its blocks'
// summaries keep how well their medians are known, how far their runs
// spread and how much their CPUs differ (NULL bound when too few runs).
func TestCalibrationKeepsCPUsAndFaults(t *testing.T) {
	st := storetest.Open(t)
	var rows []calibration.Row
	for rep := range 16 {
		rows = append(rows, calibration.Row{Block: "tile", Alpha: []float64{64}, F: 1000, Seconds: 1e-3 * (1 + 0.4*float64(rep%2)),
			Machine: "m", Rep: rep, Copies: 1, Wall: 2e-3, CPU: rep % 2, Faults: rep % 3})
	}
	rows = append(rows, calibration.Row{Block: "once", F: 1, Seconds: 1, Machine: "m", Copies: 1, CPU: -1})
	stats := calibration.Analyze(rows, calibration.DefaultThresholds)
	info, err := st.SaveCalibration(context.Background(), store.CalibrationInfo{Name: "cal", Path: "cal.csv", SHA256: "x"}, rows, stats)
	if err != nil {
		t.Fatal(err)
	}
	_, got, err := st.Calibration(fmt.Sprint(info.ID))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, rows) {
		t.Errorf("rows read back\n%+v\nwant\n%+v", got, rows)
	}
	var blocks []string
	err = st.Query(context.Background(), `SELECT block, printf('%.2f', cpu_spread), bound IS NULL, printf('%.3f', spread) FROM calibration_blocks ORDER BY block`, nil,
		func([]string) error { return nil },
		func(vals []any) error { blocks = append(blocks, fmt.Sprint(vals...)); return nil })
	if err != nil {
		t.Fatal(err)
	}
	// tile: 40% apart between the CPUs; its medians come from the runs
	// without faults (rep a multiple of 3), 3 on each CPU: too few to
	// bound them.
	want := []string{fmt.Sprint("once", "0.00", 1, "0.000"), fmt.Sprint("tile", "0.40", 1, fmt.Sprintf("%.3f", stats[1].Spread()))}
	if !reflect.DeepEqual(blocks, want) {
		t.Errorf("blocks %q, want %q", blocks, want)
	}
}
