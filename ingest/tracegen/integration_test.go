package tracegen_test

import (
	"bytes"
	"github.com/presage-dvm/presage/ingest/machinefile"
	"github.com/presage-dvm/presage/sim/trace"
	"io"
	"path/filepath"
	"strings"
	"testing"

	"github.com/presage-dvm/presage/ingest/ptr"
	"github.com/presage-dvm/presage/ingest/tracegen"
	"github.com/presage-dvm/presage/sim"
	"github.com/presage-dvm/presage/sim/result"
)

// These tests run the generated traces through the trace reader and the
// simulator.

var traceOptions = []tracegen.Options{
	{Program: tracegen.Jacobi, N: 16, Iterations: 5},
	{Program: tracegen.Jacobi, N: 64, Iterations: 5, Intervals: true},
	{Program: tracegen.Gauss, N: 16, Iterations: 2},
	{Program: tracegen.Gauss, N: 16, Iterations: 1, Intervals: true},
}

func TestReaderReadsTraces(t *testing.T) {
	dir := t.TempDir()
	for _, opt := range traceOptions {
		var buf bytes.Buffer
		want, err := tracegen.Write(&buf, opt)
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(dir, string(opt.Program)+".ptr.gz")
		if _, err := tracegen.WriteFile(path, opt); err != nil {
			t.Fatal(err)
		}
		plain, err := ptr.NewReader(&buf, "plain")
		if err != nil {
			t.Fatalf("%+v: %v", opt, err)
		}
		zipped, err := ptr.OpenFile(path)
		if err != nil {
			t.Fatalf("%+v: %v", opt, err)
		}
		for _, r := range []*ptr.Reader{plain, zipped} {
			if h := r.Header(); h.RTSVersion != "2889" || h.ProcCount != 1 || h.VProcCount != 0 {
				t.Errorf("%+v: header %+v", opt, h)
			}
			calls, err := trace.ReadAll(r)
			if err != nil {
				t.Fatalf("%+v: %s: %v", opt, r.Name(), err)
			}
			if len(calls) != want {
				t.Errorf("%+v: %s: read %d calls, Write returned %d", opt, r.Name(), len(calls), want)
			}
			if _, err := r.Next(); err != io.EOF {
				t.Errorf("%+v: Next after the last call = %v, want io.EOF", opt, err)
			}
		}
		zipped.Close()
	}
}

// mvs is the machine of the shipped Predictor.par: 512 nodes of 2
// processors on Myrinet.
const mvs = `cluster = mvs; search=0;
mvs = {512 x mvsP2}; mvs.CommType = myrinet (1); mvs.TStart = 7; mvs.TByte = 0.004;
mvsP2 = {2 x mvsP1}; mvsP2.CommType = myrinet (1); mvsP2.TStart = 1; mvsP2.TByte = 0.001;
mvsP1 = 1.00;
`

func predict(t *testing.T, opt tracegen.Options, grid []int) float64 {
	t.Helper()
	m, err := machinefile.Parse(strings.NewReader(mvs), "Predictor.par")
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if _, err := tracegen.Write(&buf, opt); err != nil {
		t.Fatal(err)
	}
	r, err := ptr.NewReader(&buf, "gen.ptr")
	if err != nil {
		t.Fatal(err)
	}
	run, err := sim.Predict(r.Header(), r, m, result.Config{Grid: grid}, sim.Options{TraceFile: "gen.ptr"})
	if err != nil {
		t.Fatalf("%+v on %v: %v", opt, grid, err)
	}
	root := run.Interval(run.ReportRoot)
	if root == nil {
		t.Fatalf("%+v on %v: no report root", opt, grid)
	}
	return root.Values[result.Efficiency]
}

func TestPredictGeneratedTraces(t *testing.T) {
	for _, opt := range traceOptions {
		for _, grid := range [][]int{{1}, {2, 2}, {4, 4}} {
			eff := predict(t, opt, grid)
			// Productive/total time on one processor may exceed 1 by
			// a rounding error.
			if !(eff > 0 && eff <= 1+1e-9) {
				t.Errorf("%+v on %v: efficiency %v, want (0,1]", opt, grid, eff)
			}
			t.Logf("%s N=%d intervals=%v on %v: efficiency %.4f", opt.Program, opt.N, opt.Intervals, grid, eff)
		}
	}
}

// TestJacobiEfficiencyGrowsWithN: a larger N means more computation per
// exchanged edge, so the 2x2 efficiency rises.
func TestJacobiEfficiencyGrowsWithN(t *testing.T) {
	small := predict(t, tracegen.Options{Program: tracegen.Jacobi, N: 32, Iterations: 50}, []int{2, 2})
	large := predict(t, tracegen.Options{Program: tracegen.Jacobi, N: 1024, Iterations: 50}, []int{2, 2})
	t.Logf("2x2 efficiency: N=32 %.4f, N=1024 %.4f", small, large)
	if !(large > small) {
		t.Errorf("2x2 efficiency %.4f at N=1024 is not above %.4f at N=32", large, small)
	}
}
