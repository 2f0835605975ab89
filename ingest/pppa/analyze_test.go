package pppa_test

import (
	"bytes"
	"math"
	"strings"
	"testing"

	"github.com/presage-dvm/presage/ingest/pppa"
	"github.com/presage-dvm/presage/ingest/sts"
	"github.com/presage-dvm/presage/internal/golden"
	"github.com/presage-dvm/presage/internal/ststest"
	"github.com/presage-dvm/presage/schema/stored"
	"github.com/presage-dvm/presage/sim/result"
)

func analyze(t *testing.T, spec ststest.Spec) *stored.StsAnalysis {
	t.Helper()
	f, err := sts.Decode(bytes.NewReader(spec.GzPlus()), "test.sts.gz+")
	if err != nil {
		t.Fatal(err)
	}
	a, err := pppa.Analyze(f, "test")
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func near(a, b float64) bool { return math.Abs(a-b) < 1e-9 }

// TestSimple checks the values of ststest.Simple(2) worked out by hand
// from docs/model.md §10.4-§10.6 (see the cells and events of Simple).
func TestSimple(t *testing.T) {
	a := analyze(t, ststest.Simple(2))
	run := a.Run
	if run.Kind != result.Measured || len(run.Intervals) != 2 || result.GridString(run.Config.Grid) != "2" {
		t.Fatalf("run %+v", run)
	}
	main, loop := run.Intervals[0], run.Intervals[1]
	if main.Count != 1 || loop.Count != 10 || loop.Parent != 1 || loop.Type != result.Par || main.Type != result.Main {
		t.Errorf("identity: main count %d, loop count %d parent %d type %s", main.Count, loop.Count, loop.Parent, loop.Type)
	}
	if len(loop.Procs) != 2 {
		t.Fatalf("loop on %d processors, want 2", len(loop.Procs))
	}
	p0, p1 := loop.Procs[0].Values, loop.Procs[1].Values
	for _, tc := range []struct {
		name      string
		got, want float64
	}{
		{"p0 communication", p0[result.Communication], 0.003},
		{"p1 communication", p1[result.Communication], 0.006},
		{"p0 real sync", p0[result.CommunicationSynch], 0.0002},
		{"p0 user CPU", p0[result.ProductiveCPUTime], 0.0041},
		{"p0 user insufficient", p0[result.InsuffParallelismUsr], 0.001},
		{"p0 execution", p0[result.ExecutionTime], 0.0081},
		{"p1 execution", p1[result.ExecutionTime], 0.0111},
		{"p0 idle", p0[result.Idle], 0.003},
		{"p1 idle", p1[result.Idle], 0},
		{"p0 lost", p0[result.LostTime], 0.007},
		{"p0 synchronization", p0[result.Synchronization], 0.005},
		{"p1 synchronization", p1[result.Synchronization], 0},
		{"p0 variation", p0[result.TimeVariation], 0.0025},
		{"p1 overlap", p1[result.Overlap], 0.0025},
		{"p0 overlap", p0[result.Overlap], 0},
		{"p0 reduction calls", p0[result.NumOpReduct], 5},
		{"p0 reduction comm", p0[result.WaitReduction], 0.003},
		{"p0 reduction synch", p0[result.ReductionSynch], 0.005},
		{"loop execution", loop.Values[result.ExecutionTime], 0.0111},
		{"loop total", loop.Values[result.TotalTime], 0.0222},
		{"loop reduction calls", loop.Values[result.NumOpReduct], 10},
		{"loop processors", loop.Values[result.Processors], 2},
		{"loop threads", loop.Values[result.ThreadsAmount], 2},
		// The main interval includes the loop: its synchronization is the loop's.
		{"main p0 synchronization", main.Procs[0].Values[result.Synchronization], 0.005},
		{"main p1 communication", main.Procs[1].Values[result.Communication], 0.006},
		{"main p0 IO time", main.Procs[0].Values[result.IOTime], 0.0005},
	} {
		if !near(tc.got, tc.want) {
			t.Errorf("%s = %v, want %v", tc.name, tc.got, tc.want)
		}
	}
	if len(a.Procs) != 2 || a.Procs[1].Name != "node" || a.Procs[1].TestTime != 0.16 || a.Version != "5.0" {
		t.Errorf("processors %+v version %q", a.Procs, a.Version)
	}
	if len(a.Intervals) != 2 || a.Intervals[1].TypeCode != sts.TypePar || a.Intervals[1].LineEnd != 15 {
		t.Errorf("interval info %+v", a.Intervals)
	}
}

// TestUnmatchedIntervals: an interval present on one processor only forms
// its own group; its processor count disagrees with qproc, so idle time,
// lost time and imbalance are dropped (docs/model.md §10.6), and it gets no
// synchronisation, variation or overlap (as the original's report of
// taskst.2x2 shows).
func TestUnmatchedIntervals(t *testing.T) {
	spec := ststest.Simple(2)
	spec.Procs[1].Intervals[1].Line = 99
	spec.Procs[1].Events = nil
	a := analyze(t, spec)
	run := a.Run
	if len(run.Intervals) != 3 {
		t.Fatalf("%d intervals, want main + two unmatched loops", len(run.Intervals))
	}
	lines := []int{run.Intervals[0].Line, run.Intervals[1].Line, run.Intervals[2].Line}
	if lines[0] != 8 || lines[1] != 10 || lines[2] != 99 {
		t.Errorf("walk order lines %v, want [8 10 99]", lines)
	}
	for _, iv := range run.Intervals[1:] {
		if len(iv.Procs) != 1 || iv.Values[result.Processors] != 1 || iv.Parent != 1 {
			t.Errorf("interval line %d: %d processors, parent %d", iv.Line, len(iv.Procs), iv.Parent)
		}
		if v := iv.Procs[0].Values; v[result.Idle] != 0 || v[result.LostTime] != 0 || v[result.Processors] != 0 {
			t.Errorf("interval line %d: idle %v lost %v processors %v, want 0", iv.Line, v[result.Idle], v[result.LostTime], v[result.Processors])
		}
	}
	// Processor 0's loop enters its waits 0.5 ms after the starts return;
	// a complete group would count that as overlap, this one gets none.
	if ov := run.Intervals[1].Procs[0].Values[result.Overlap]; ov != 0 {
		t.Errorf("overlap %v of an interval found on fewer processors than it ran on, want 0", ov)
	}
	if p := run.Intervals[2].Procs[0].Proc; p != 1 {
		t.Errorf("line 99 on processor %d, want 1", p)
	}
}

// TestMismatchedEvents: event records that do not pair up are errors
// naming the interval.
func TestMismatchedEvents(t *testing.T) {
	for _, tc := range []struct {
		name string
		drop int // index of processor 0's event to drop
		want string
	}{
		{"wait without its return", 2, "number of calls != number of returns interval=2"},
		{"wait without its start", 0, "number of call operations != number of wait operations"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			spec := ststest.Simple(2)
			ev := spec.Procs[0].Events
			spec.Procs[0].Events = append(ev[:tc.drop:tc.drop], ev[tc.drop+1:]...)
			f, err := sts.Decode(bytes.NewReader(spec.GzPlus()), "t")
			if err != nil {
				t.Fatal(err)
			}
			_, err = pppa.Analyze(f, "t")
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want %q", err, tc.want)
			}
		})
	}
}

func TestRealFile(t *testing.T) {
	f, err := sts.Read(golden.Path(t, "sts", "jac_e4.1x2.sts.gz+"))
	if err != nil {
		t.Fatal(err)
	}
	a, err := pppa.Analyze(f, "jac_e4.1x2")
	if err != nil {
		t.Fatal(err)
	}
	// Printed by the original (pppa/jac_e4.1x2.txt): root efficiency 0.0571,
	// execution 0.0219, EXE_COUNT of the level-2 loops 20.
	root := a.Run.Intervals[0]
	if math.Abs(root.Values[result.Efficiency]-0.0571) > 5e-5 || math.Abs(root.Values[result.ExecutionTime]-0.0219) > 5e-5 {
		t.Errorf("root efficiency %v execution %v", root.Values[result.Efficiency], root.Values[result.ExecutionTime])
	}
	if n := a.Run.Intervals[3].Count; n != 20 {
		t.Errorf("EXE_COUNT %d, want 20", n)
	}
}

// TestNonFiniteTimesRefused: NaN, infinite or overflowing times in a file
// make no run: the error names the file and the interval.
func TestNonFiniteTimesRefused(t *testing.T) {
	for _, v := range []float64{math.NaN(), math.Inf(1), 1e308} {
		spec := ststest.Simple(2)
		main := &spec.Procs[1].Intervals[0]
		main.Cells = map[[2]int][3]float64{{0, 0}: {0, v, v}, {13, 13}: {1, v, 0}}
		f, err := sts.Decode(bytes.NewReader(spec.GzPlus()), "bad.sts.gz+")
		if err != nil {
			t.Fatal(err)
		}
		_, err = pppa.Analyze(f, "bad")
		if err == nil || !strings.Contains(err.Error(), "bad.sts.gz+: ") || !strings.Contains(err.Error(), "jac.fdv:8") ||
			!strings.Contains(err.Error(), "expected finite times") {
			t.Errorf("time %v: error %v, want one naming the file, the interval and finite times", v, err)
		}
	}
}
