package sim

import (
	"github.com/presage-dvm/presage/ingest/machinefile"
	"github.com/presage-dvm/presage/sim/trace"
	"math"
	"strings"
	"testing"

	"github.com/presage-dvm/presage/sim/machine"
	"github.com/presage-dvm/presage/sim/result"
)

// call builds one traced call from parameter text.
func call(line int, fn string, ct, rt float64, in, out string) *trace.Call {
	ps, pat := trace.ParseParams(in)
	os, _ := trace.ParseParams(out)
	return &trace.Call{Func: fn, CallTime: ct, RetTime: rt, Line: line, File: "c.cdv", TraceLine: line, In: ps, Out: os, Pattern: pat}
}

func parseMachine(t *testing.T, text string) *machine.Machine {
	t.Helper()
	m, err := machinefile.Parse(strings.NewReader(text), "test.par")
	if err != nil {
		t.Fatal(err)
	}
	return m
}

const twoProcs = "cluster = c;\nc = {2 x p};\nc.TStart = 10;\nc.TByte = 0.01;\np = 1.00;\n"

// setup is a template of 8 elements on the processors (blkdiv 1) and an
// array of 8 doubles with shadow widths 1 aligned on it, all at zero cost.
func setup() []*trace.Call {
	return []*trace.Call{
		call(10, "crtamv_", 0, 0, "AMRef=0; Rank=1; StaticSign=0;\nSizeArray[0]=8;", "AMViewRef=a1;"),
		call(11, "blkdiv_", 0, 0, "AMViewRef=a1; AMVAxisCount=1\nAMVAxisDiv[0]=1", ""),
		call(12, "distr_", 0, 0, "AMViewRef=a1; PSRef=0; ParamCount=1;\nAxisArray[0]=1;\nDistrParamArray[0]=0;", ""),
		call(13, "crtda_", 0, 0, "ArrayHeader=b1; Rank=1; TypeSize=8; StaticSign=0; ReDistrSign=0;\nSizeArray[0]=8;\nLowShdWidthArray[0]=1;\nHiShdWidthArray[0]=1;", "ArrayHandlePtr=b2;"),
		call(14, "align_", 0, 0, "ArrayHeader=b1; ArrayHandlePtr=b2; PatternRefPtr=c1; PatternRef=a1 (AMView);\nAxisArray[0]=1;\nCoeffArray[0]=1;\nConstArray[0]=0;", ""),
		call(15, "crtshg_", 0, 0, "StaticSign=0;", "ShadowGroupRef=d1;"),
		call(16, "inssh_", 0, 0, "ShadowGroupRef=d1; ArrayHeader=b1; ArrayHandlePtr=b2; FullShdSign=0;\nLowShdWidthArray[0]=1;\nHiShdWidthArray[0]=1;", ""),
	}
}

// appendixC is the trace of docs/model.md Appendix C: setup, then 1 ms of
// work and a shadow renewal.
func appendixC() []*trace.Call {
	return append(setup(),
		call(20, "getam_", 0.001, 0.0001, "", "AMRef=e1;"),
		call(21, "strtsh_", 0.002, 0.0001, "ShadowGroupRef=d1;", ""),
		call(22, "waitsh_", 0, 0, "ShadowGroupRef=d1;", ""),
	)
}

// predictRoot is the report root of calls predicted on the machine file
// text with a one-dimensional grid of procs processors.
func predictRoot(t *testing.T, calls []*trace.Call, text string, procs int) *result.Interval {
	t.Helper()
	h := &trace.Header{RootLine: 1, RootFile: "c.cdv"}
	run, err := Predict(h, trace.NewSliceSource(calls), parseMachine(t, text), result.Config{Grid: []int{procs}}, Options{TraceFile: "c.ptr"})
	if err != nil {
		t.Fatal(err)
	}
	return run.Interval(run.ReportRoot)
}

// TestAppendixC is the worked example of docs/model.md Appendix C.
func TestAppendixC(t *testing.T) {
	root := predictRoot(t, appendixC(), twoProcs, 2)
	v := root.Values
	want := map[result.Char]float64{
		result.ExecutionTime: 0.0032, result.TotalTime: 0.0064, result.CPUTimeUsr: 0.006,
		result.CPUTimeSys: 0.0004, result.InsuffParallelismUsr: 0.003, result.InsuffParallelismSys: 0.0002,
		result.ProductiveTime: 0.0032, result.Efficiency: 0.5, result.LostTime: 0.0032,
		result.Overlap: 0.0042, result.ShadowOverlap: 0.0042, result.NumOpShadow: 1,
		result.WaitShadow: 0, result.Communication: 0, result.Idle: 0,
	}
	for c, w := range want {
		if math.Abs(v[c]-w) > 1e-12 {
			t.Errorf("%s = %.10g, want %g", c, v[c], w)
		}
	}
	// The per-processor values add up to the interval's.
	var sum float64
	for _, p := range root.Procs {
		sum += p.Values[result.CPUTimeUsr]
	}
	if math.Abs(sum-v[result.CPUTimeUsr]) > 1e-15 {
		t.Errorf("Σ_p CPU_time_usr = %g, interval %g", sum, v[result.CPUTimeUsr])
	}
}

// TestShadowCostVisible checks the exchange cost of Appendix C when the
// wait comes right after the start: the processors wait for cost/P.
func TestShadowCostVisible(t *testing.T) {
	calls := append(setup(),
		call(20, "getam_", 0.001, 0.0001, "", "AMRef=e1;"),
		call(21, "strtsh_", 0, 0, "ShadowGroupRef=d1;", ""),
		call(22, "waitsh_", 0, 0, "ShadowGroupRef=d1;", ""),
	)
	h := &trace.Header{RootLine: 1, RootFile: "c.cdv"}
	run, err := Predict(h, trace.NewSliceSource(calls), parseMachine(t, twoProcs), result.Config{Grid: []int{2}}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	v := run.Interval(run.ReportRoot).Values
	// cost = 2·(1e-5 + 8e-8) = 2.016e-5 (the second message queues behind
	// the first on the one channel); time_end = clock + cost/P, so each of
	// the two processors waits cost/2.
	if got := v[result.WaitShadow]; math.Abs(got-2.016e-5) > 1e-15 {
		t.Errorf("Wait_shadow = %.12g, want 2.016e-5", got)
	}
	if got := v[result.ShadowOverlap]; got != 0 {
		t.Errorf("Shadow_overlap = %g, want 0", got)
	}
}

func TestUnknownFunctionWarns(t *testing.T) {
	calls := []*trace.Call{call(5, "foo_", 0.001, 0, "", ""), call(6, "foo_", 0.001, 0, "", "")}
	run, err := Predict(&trace.Header{}, trace.NewSliceSource(calls), parseMachine(t, twoProcs), result.Config{Grid: []int{2}}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(run.Warnings) != 1 || run.Warnings[0].Count != 2 || run.Warnings[0].Message != "unknown function foo_: base algorithm" {
		t.Errorf("warnings = %+v", run.Warnings)
	}
	if got := run.Intervals[0].Values[result.CPUTimeUsr]; math.Abs(got-0.004) > 1e-15 {
		t.Errorf("unknown functions run the base algorithm: CPU_time_usr = %g, want 0.004", got)
	}
}

func TestBadInput(t *testing.T) {
	h := &trace.Header{RootLine: 1, RootFile: "c.cdv"}
	tests := []struct {
		name  string
		calls []*trace.Call
		want  string
	}{
		{"missing parameter", []*trace.Call{call(1234, "crtda_", 0, 0, "ArrayHeader=b1; Rank=1; TypeSize=8;", "ArrayHandlePtr=b2;")},
			"c.ptr:1234: crtda_: required parameter 'SizeArray' missing"},
		{"not a number", []*trace.Call{call(7, "crtda_", 0, 0, "ArrayHeader=b1; Rank=1; TypeSize=eight;\nSizeArray[0]=8;", "ArrayHandlePtr=b2;")},
			"c.ptr:7: crtda_: parameter 'TypeSize'=\"eight\" is not a number"},
		{"bad handle", []*trace.Call{call(8, "crtshg_", 0, 0, "StaticSign=0;", "ShadowGroupRef=xyz;")},
			"c.ptr:8: crtshg_: parameter 'ShadowGroupRef'=\"xyz\" is not a hexadecimal handle"},
		{"unknown array", []*trace.Call{call(9, "align_", 0, 0, "ArrayHeader=f1; ArrayHandlePtr=b2; PatternRefPtr=c1; PatternRef=a1 (AMView);\nAxisArray[0]=1;\nCoeffArray[0]=1;\nConstArray[0]=0;", "")},
			"c.ptr:9: align_: array ArrayHeader=f1 was never created (crtda_)"},
		{"unknown loop", []*trace.Call{call(10, "dopl_", 0.1, 0, "LoopRef=77;", "DoPL=1;")},
			"c.ptr:10: dopl_: parallel loop LoopRef=77 was never created (crtpl_)"},
		{"unknown group", []*trace.Call{call(11, "strtrd_", 0, 0, "RedGroupRef=5;", "")},
			"c.ptr:11: strtrd_: reduction group RedGroupRef=5 was never created (crtrg_)"},
		{"unknown template", []*trace.Call{call(12, "distr_", 0, 0, "AMViewRef=a9; PSRef=0; ParamCount=1;\nAxisArray[0]=1;", "")},
			"c.ptr:12: distr_: template AMViewRef=a9 was never created (crtamv_)"},
		{"unknown buffer", []*trace.Call{call(13, "loadrb_", 0, 0, "BufferHeader=42; RenewSign=0;", "")},
			"c.ptr:13: loadrb_: remote buffer BufferHeader=42 was never created (crtrbl_/crtrbp_)"},
		{"interval never opened", []*trace.Call{call(14, "einter_", 0, 0, "nfrag=1; nline=3", "")},
			"c.ptr:14: einter_: interval closed that was never opened (the current interval is Main)"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Predict(h, trace.NewSliceSource(tc.calls), parseMachine(t, twoProcs), result.Config{Grid: []int{2}}, Options{TraceFile: "c.ptr"})
			if err == nil || err.Error() != tc.want {
				t.Errorf("error = %v, want %q", err, tc.want)
			}
		})
	}
}

func TestBadGrid(t *testing.T) {
	nci := parseMachine(t, "cluster = NCI;\nNCI = {512 x p};\nNCI.TStart = 9;\nNCI.TByte = 0.0125;\np = 1.00;\n")
	tests := []struct {
		grid []int
		want string
	}{
		{[]int{32, 32}, "grid 32x32 needs 1024 processors, machine NCI has 512"},
		{[]int{2, 2, 2, 2, 2}, "grid 2x2x2x2x2 has rank 5: at most 4 dimensions"},
		{[]int{0, 2}, "grid 0x2: every size must be positive"},
	}
	for _, tc := range tests {
		_, err := Predict(&trace.Header{}, trace.NewSliceSource(nil), nci, result.Config{Grid: tc.grid, Machine: "NCI"}, Options{})
		if err == nil || err.Error() != tc.want {
			t.Errorf("grid %v: error = %v, want %q", tc.grid, err, tc.want)
		}
	}
}

// TestIOFilter: inside biof_/eiof_ only processor 0 is charged, as I/O time.
func TestIOFilter(t *testing.T) {
	calls := []*trace.Call{
		call(1, "biof_", 0.001, 0.001, "", ""),
		call(2, "tstio_", 0.002, 0.001, "", ""),
		call(3, "eiof_", 0.001, 0.001, "", ""),
	}
	run, err := Predict(&trace.Header{}, trace.NewSliceSource(calls), parseMachine(t, twoProcs), result.Config{Grid: []int{2}}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	iv := run.Intervals[0]
	p0, p1 := iv.Procs[0].Values, iv.Procs[1].Values
	// biof_ (0.002 + insufficient parallelism 0.001) and tstio_ (0.003 +
	// 0.0015) all become I/O time on processor 0; eiof_ is charged to both.
	if got := p0[result.IOTime]; math.Abs(got-0.0075) > 1e-15 {
		t.Errorf("IO_time of processor 0 = %g, want 0.0075", got)
	}
	if got := p1[result.ExecutionTime]; math.Abs(got-0.002) > 1e-15 {
		t.Errorf("processor 1 runs only eiof_: Execution_time = %g, want 0.002", got)
	}
	if got := iv.Values[result.NumOpIO]; got != 1 {
		t.Errorf("Num_op_io = %g, want 1", got)
	}
}
