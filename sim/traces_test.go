package sim

import (
	"github.com/presage-dvm/presage/sim/trace"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/presage-dvm/presage/ingest/ptr"
	"github.com/presage-dvm/presage/internal/golden"
	"github.com/presage-dvm/presage/sim/result"
)

// TestAllTracesPredict runs every shared trace, including those on which
// the original crashes, on several grids: no error, finite numbers.
func TestAllTracesPredict(t *testing.T) {
	files, err := filepath.Glob(golden.Path(t, "traces", "*.ptr*"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no traces: %v", err)
	}
	m := loadMachine(t, "Predictor")
	grids := [][]int{{1}, {4}, {2, 2}, {8, 8}}
	for _, f := range files {
		name := filepath.Base(f)
		if testing.Short() && strings.Contains(name, "x40000") {
			continue
		}
		for _, g := range grids {
			if strings.Contains(name, "x40000") && len(g) == 2 && g[0] == 8 {
				continue // covered by the benchmark; too slow for a unit test
			}
			t.Run(name+"."+result.GridString(g), func(t *testing.T) {
				run, err := predictFile(t, f, m, g)
				if err != nil {
					t.Fatal(err)
				}
				if len(run.Intervals) == 0 || run.Interval(run.ReportRoot) == nil {
					t.Fatalf("no intervals or no report root %d", run.ReportRoot)
				}
				for _, iv := range run.Intervals {
					for c, v := range iv.Values {
						if math.IsNaN(v) || math.IsInf(v, 0) {
							t.Errorf("interval %d: %s = %v", iv.ID, result.Char(c), v)
						}
					}
				}
			})
		}
	}
}

// TestCrashCases checks the traces on which the original fails: they
// predict, with the documented warnings.
func TestCrashCases(t *testing.T) {
	m := loadMachine(t, "Predictor")
	tests := []struct {
		trace   string
		warning string // expected warning, "" for none
	}{
		{"gauswh.ptr", "setelw_ without WeightNumber/LoadWeight: default weights"},
		{"jac2d_perf.ptr", "unknown function bsynch_: base algorithm"},
		{"jac2d.ptr", ""},
		{"tasks.ptr", ""},
		{"adi.ptr", ""},
	}
	for _, tc := range tests {
		t.Run(tc.trace, func(t *testing.T) {
			run, err := predictFile(t, golden.Path(t, "traces", tc.trace), m, []int{2, 2})
			if err != nil {
				t.Fatal(err)
			}
			found := tc.warning == ""
			for _, w := range run.Warnings {
				if w.Message == tc.warning {
					found = true
				}
			}
			if !found {
				t.Errorf("warnings %+v lack %q", run.Warnings, tc.warning)
			}
			root := run.Interval(run.ReportRoot)
			if root.Values[result.ExecutionTime] <= 0 {
				t.Errorf("Execution_time = %g", root.Values[result.ExecutionTime])
			}
		})
	}
}

// TestCDVMHPattern: in the C-DVMH jac2d trace the loops find their pattern
// array through PatternRef, so shadow exchanges and reductions cost time.
func TestCDVMHPattern(t *testing.T) {
	run, err := predictFile(t, golden.Path(t, "traces", "jac2d.ptr"), loadMachine(t, "Predictor"), []int{2, 2})
	if err != nil {
		t.Fatal(err)
	}
	v := run.Interval(run.ReportRoot).Values
	if v[result.NumOpShadow] == 0 || v[result.WaitReduction] == 0 {
		t.Errorf("Num_op_shadow = %g, Wait_reduction = %g: the loops are not mapped", v[result.NumOpShadow], v[result.WaitReduction])
	}
}

// TestProcsAddUp: for summed characteristics the per-processor values add
// up to the interval's value, in every interval of a nested trace.
func TestProcsAddUp(t *testing.T) {
	run, err := predictFile(t, golden.Path(t, "traces", "jac_e4.ptr"), loadMachine(t, "Predictor"), []int{2, 2})
	if err != nil {
		t.Fatal(err)
	}
	for _, iv := range run.Intervals {
		for _, c := range []result.Char{result.CPUTimeUsr, result.CPUTimeSys, result.LostTime, result.Communication,
			result.InsuffParallelism, result.Idle, result.LoadImbalance, result.Overlap, result.WaitShadow, result.IOTime} {
			sum := 0.0
			for _, p := range iv.Procs {
				sum += p.Values[c]
			}
			if math.Abs(sum-iv.Values[c]) > 1e-12 {
				t.Errorf("interval %d %s: Σ_p = %g, interval %g", iv.ID, c, sum, iv.Values[c])
			}
		}
	}
}

// TestCloseOpenIntervals: with the switch the report starts from Main.
func TestCloseOpenIntervals(t *testing.T) {
	m := loadMachine(t, "Predictor")
	f := golden.Path(t, "traces", "jac_e4.ptr")
	run, err := predictFile(t, f, m, []int{2, 2})
	if err != nil {
		t.Fatal(err)
	}
	if run.ReportRoot != 2 {
		t.Errorf("report root = %d, want 2 (the open Seq interval)", run.ReportRoot)
	}
	r, err := ptr.OpenFile(f)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	closed, err := Predict(r.Header(), r, m, result.Config{Grid: []int{2, 2}}, Options{CloseOpenIntervals: true})
	if err != nil {
		t.Fatal(err)
	}
	if closed.ReportRoot != 1 || len(closed.Config.Options) != 1 || closed.Config.Options[0] != "close-open-intervals" {
		t.Errorf("report root %d, options %v", closed.ReportRoot, closed.Config.Options)
	}
	main, seq := closed.Interval(1).Values, run.Interval(2).Values
	if main[result.ExecutionTime] < seq[result.ExecutionTime] {
		t.Errorf("Main's Execution_time %g < its child's %g", main[result.ExecutionTime], seq[result.ExecutionTime])
	}
}

// TestLoadWeights: the switch installs setelw_'s load weights, which moves
// the blocks of gauswh_lw at 8x8.
func TestLoadWeights(t *testing.T) {
	m := loadMachine(t, "Predictor")
	f := golden.Path(t, "traces", "gauswh_lw.ptr")
	plain, err := predictFile(t, f, m, []int{8, 8})
	if err != nil {
		t.Fatal(err)
	}
	r, err := ptr.OpenFile(f)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	weighted, err := Predict(r.Header(), r, m, result.Config{Grid: []int{8, 8}}, Options{LoadWeights: true})
	if err != nil {
		t.Fatal(err)
	}
	a, b := plain.Intervals[0].Values[result.RemoteAccess], weighted.Intervals[0].Values[result.RemoteAccess]
	if a == b {
		t.Errorf("Remote_access %g with and without load weights", a)
	}
}

// TestConcurrent predicts several configurations at once from the same
// calls in memory: the results equal those of sequential runs.
func TestConcurrent(t *testing.T) {
	r, err := ptr.OpenFile(golden.Path(t, "traces", "jacas_e4.ptr"))
	if err != nil {
		t.Fatal(err)
	}
	calls, err := trace.ReadAll(r)
	r.Close()
	if err != nil {
		t.Fatal(err)
	}
	m := loadMachine(t, "Predictor")
	grids := [][]int{{2}, {2, 2}, {4, 4}, {8, 8}}
	want := make([]float64, len(grids))
	for i, g := range grids {
		run, err := Predict(r.Header(), trace.NewSliceSource(calls), m, result.Config{Grid: g}, Options{})
		if err != nil {
			t.Fatal(err)
		}
		want[i] = run.Interval(run.ReportRoot).Values[result.ExecutionTime]
	}
	got := make([]float64, len(grids))
	done := make(chan error, len(grids))
	for i, g := range grids {
		go func() {
			run, err := Predict(r.Header(), trace.NewSliceSource(calls), m, result.Config{Grid: g}, Options{})
			if err == nil {
				got[i] = run.Interval(run.ReportRoot).Values[result.ExecutionTime]
			}
			done <- err
		}()
	}
	for range grids {
		if err := <-done; err != nil {
			t.Fatal(err)
		}
	}
	for i := range grids {
		if got[i] != want[i] {
			t.Errorf("grid %v: concurrent Execution_time %g, sequential %g", grids[i], got[i], want[i])
		}
	}
}
