package ingest_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime/metrics"
	"strings"
	"testing"
	"time"

	"github.com/presage-dvm/presage/ingest"
	"github.com/presage-dvm/presage/ingest/ptr"
	"github.com/presage-dvm/presage/internal/golden"
	"github.com/presage-dvm/presage/internal/stage"
	"github.com/presage-dvm/presage/internal/storetest"
	"github.com/presage-dvm/presage/schema/store"
	"github.com/presage-dvm/presage/sim"
	"github.com/presage-dvm/presage/sim/machine"
	"github.com/presage-dvm/presage/sim/result"
)

// A mutation changes one field of a real trace, or repeats a few of its
// lines: what a damaged or hand-edited trace looks like.
type mutation struct {
	base   uint8  // which real trace (mutationBases)
	line   int    // 1-based line, taken modulo the trace's lines
	field  string // the Name= whose value changes; "" replaces the line
	value  string
	repeat int // when > 0: lines line..line+3 repeated this many times more
}

// mutationBases are the small real traces the mutations start from: a
// Fortran-DVM Jacobi with intervals, one with ACROSS loops, one with tasks.
var mutationBases = []string{"jac_e4.ptr", "sor.ptr", "tasks.ptr"}

// The bounds of a mutation's repetitions: the hostile traces' 100,000
// (about 15 MB of trace), the fuzzer's 2,000 (enough to nest intervals
// beyond MaxDepth, small enough for a few runs a second).
const (
	maxRepeat     = 100_000
	maxFuzzRepeat = 2_000
)

// apply writes the mutated trace into dir, its repetitions bounded by
// most, and returns its path.
func (m mutation) apply(t testing.TB, dir string, most int) string {
	t.Helper()
	src, err := os.ReadFile(golden.Path(t, "traces", mutationBases[int(m.base)%len(mutationBases)]))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(src), "\n")
	i := ((m.line-1)%len(lines) + len(lines)) % len(lines)
	switch {
	case m.field == "":
		lines[i] = m.value
	default:
		lines[i] = setField(lines[i], m.field, m.value)
	}
	if n := min(max(m.repeat, 0), most); n > 0 {
		block := lines[i:min(i+4, len(lines))]
		out := append([]string{}, lines[:i]...)
		for range n + 1 {
			out = append(out, block...)
		}
		lines = append(out, lines[i+len(block):]...)
	}
	path := filepath.Join(dir, "mutated.ptr")
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// setField replaces the value of name= on the line (up to the next ';' or
// blank), or appends name=value when the line has none.
func setField(line, name, value string) string {
	k := strings.Index(line, name+"=")
	if k < 0 {
		return line + " " + name + "=" + value
	}
	from := k + len(name) + 1
	to := from
	for to < len(line) && line[to] != ';' && line[to] != ' ' && line[to] != '\t' {
		to++
	}
	return line[:from] + value + line[to:]
}

// hostile are the traces of issue 26 (each a copy of jac_e4.ptr with one
// field changed) and others like them, with the error each must get ("":
// none, the trace is sound).
var hostile = []struct {
	name string
	m    mutation
	want string // in the error, after the file's name and line
}{
	{"a loop's rank of a billion", mutation{line: 115, field: "Rank", value: "1000000000"},
		":114: crtpl_: parallel loop of rank 1000000000: expected a rank from 1 to 7"},
	{"100,000 intervals opened, never closed", mutation{line: 33, field: "TIME", value: "0.00000100", repeat: 100_000},
		": bsloop_: interval nested 1001 deep: at most 1000"},
	{"a template's sizes of 2^63−1", mutation{line: 44, value: "SizeArray[0]=9223372036854775807; SizeArray[1]=9223372036854775807;"},
		":42: crtamv_: template: SizeArray [9223372036854775807 9223372036854775807]: more than 9,007,199,254,740,992 elements"},
	{"the array's sizes of 2^63−1", mutation{line: 79, value: "SizeArray[0]=9223372036854775807; SizeArray[1]=9223372036854775807;"},
		":77: crtda_: array: SizeArray [9223372036854775807 9223372036854775807]: more than"},
	{"header ProcCount=-1", mutation{line: 8, field: "ProcCount", value: "-1"},
		":8: ProcCount=-1: expected the traced run's processor count, at least 1"},
	{"an array of sizes -8 and 0", mutation{line: 79, value: "SizeArray[0]=-8; SizeArray[1]=0;"},
		":77: crtda_: array: SizeArray[0]=-8: expected a size ≥ 1"},
	{"an array of rank 9", mutation{line: 78, field: "Rank", value: "9"},
		":77: crtda_: array of rank 9: expected a rank from 1 to 7"},
	{"an element of a terabyte", mutation{line: 78, field: "TypeSize", value: "1099511627776"},
		":77: crtda_: array: TypeSize=1099511627776: expected at most 512 bytes an element"},
	{"a loop that was never created", mutation{line: 121, field: "LoopRef", value: "deadbeef"},
		":120: mappl_: parallel loop LoopRef=deadbeef was never created (crtpl_)"},
	{"a processor subsystem of a billion processors", mutation{base: 2, line: 116, value: "LastIndexArray[0]=1000000000;"},
		":113: crtps_: processor subsystem [0]..[1000000000]: more processors than its system's 1"},
	{"a processor system reshaped beyond int64", mutation{base: 2, line: 54, value: "SizeArray[0]=4294967296; SizeArray[1]=4294967296;"},
		""},
	{"a virtual processor system that does not add up", mutation{line: 15, value: "VProcCount=4; VPSRank=2; VPSSize=3 3;"},
		":15: VPSSize=[3 3]: expected sizes ≥ 1 whose product is VProcCount=4"},
}

// TestHostileTraces: with TraceOptions.CheckMeaning every trace above is
// refused at ingest with one line naming the file, the line and the
// limit, and the store is unchanged. Without it the defects found where a
// field is read are refused at ingest alike; those only a simulation
// finds are stored, and the trace's first prediction finds them
// (hostileFirstPrediction).
func TestHostileTraces(t *testing.T) {
	ctx := context.Background()
	st := storetest.Open(t)
	if _, err := ingest.Machine(ctx, st, golden.Path(t, "machines", "Predictor.par")); err != nil {
		t.Fatal(err)
	}
	for _, tc := range hostile {
		t.Run(tc.name, func(t *testing.T) {
			path := tc.m.apply(t, t.TempDir(), maxRepeat)
			before := storetest.Count(t, st, "traces")
			info, err := ingest.TraceWith(ctx, st, path, ingest.TraceOptions{CheckMeaning: true})
			if tc.want == "" {
				if err != nil || info.Refused != "" {
					t.Errorf("ingest --check: %v, refused %q; want the trace stored, not refused", err, info.Refused)
				}
				return
			}
			wantRefused(t, "ingest --check", err, path, tc.want)
			if n := storetest.Count(t, st, "traces"); n != before {
				t.Errorf("%d traces stored after a refused ingest, %d before", n, before)
			}

			info, err = ingest.Trace(ctx, st, path, nil)
			if _, parsing := errors.AsType[*ptr.Error](err); parsing {
				wantRefused(t, "ingest", err, path, tc.want)
				return
			}
			if err != nil || info.Refused != "" {
				t.Fatalf("ingest: %v, refused %q; want the trace stored, not refused (only a prediction finds the defect)", err, info.Refused)
			}
			hostileFirstPrediction(t, st, info, filepath.Base(path), tc.want)
		})
	}
}

// hostileFirstPrediction: the first prediction of stored trace info finds
// its defect want in file, stores no run and marks the trace refused
// with it; a second prediction is refused at once, from the mark.
func hostileFirstPrediction(t *testing.T, st *store.Store, info store.TraceInfo, file, want string) {
	t.Helper()
	ctx := context.Background()
	req := stage.PredictRequest{Trace: fmt.Sprint(info.ID), Machine: "Predictor", Config: result.Config{Grid: []int{1}}}
	runs := storetest.Count(t, st, "runs")
	_, err := stage.PredictOne(ctx, st, req)
	wantRefused(t, "first prediction", err, file, want)
	if strings.Contains(err.Error(), "was refused at its first prediction") {
		t.Errorf("first prediction: %v; want the defect found, not a mark", err)
	}
	marked, err2 := st.Trace(fmt.Sprint(info.ID))
	if err2 != nil || !strings.HasPrefix(marked.Refused, file+":") || !strings.Contains(marked.Refused, want) {
		t.Errorf("trace after its first prediction: refused %q (%v); want it marked %s%s", marked.Refused, err2, file, want)
	}
	_, err = stage.PredictOne(ctx, st, req)
	wantRefused(t, "second prediction", err, file, want)
	if err == nil || !strings.Contains(err.Error(), "was refused at its first prediction") {
		t.Errorf("second prediction: %v; want it refused from the mark, without a simulation", err)
	}
	if _, err := stage.CompileTrace(ctx, st, req.Trace, nil); err == nil || !strings.Contains(err.Error(), "was refused at its first prediction") {
		t.Errorf("compiling the refused trace (sweeps, fits, searches): %v; want it refused from the mark", err)
	}
	if n := storetest.Count(t, st, "runs"); n != runs {
		t.Errorf("%d runs stored after refused predictions, %d before", n, runs)
	}
}

// wantRefused fails unless err is one line that names file and holds
// want (which starts at the ':' after the file, or after its line).
func wantRefused(t *testing.T, what string, err error, file, want string) {
	t.Helper()
	if err == nil || !strings.Contains(err.Error(), file+want[:strings.Index(want, ":")+1]) ||
		!strings.Contains(err.Error(), want) || strings.Contains(err.Error(), "\n") {
		t.Errorf("%s: %v\nwant one line with %s%s", what, err, file, want)
	}
}

// TestRealTracesPassTheCheck: the real traces, the original's failures
// included, are sound to the check ingest makes with CheckMeaning
// (sim.Checker); sor's ACROSS loops on a machine of one processor used to
// panic. Stored without the check, none is marked refused.
func TestRealTracesPassTheCheck(t *testing.T) {
	ctx := context.Background()
	paths, err := filepath.Glob(golden.Path(t, "traces", "*.ptr*"))
	if err != nil || len(paths) < 20 {
		t.Fatalf("real traces: %v, %v", paths, err)
	}
	checked, unchecked := storetest.Open(t), storetest.Open(t)
	for _, path := range paths {
		if _, err := ingest.TraceWith(ctx, checked, path, ingest.TraceOptions{CheckMeaning: true}); err != nil {
			t.Errorf("%s: %v", filepath.Base(path), err)
		}
		if info, err := ingest.Trace(ctx, unchecked, path, nil); err != nil || info.Refused != "" {
			t.Errorf("%s: %v, refused %q", filepath.Base(path), err, info.Refused)
		}
	}
}

// FuzzPipeline mutates real traces field by field (numbers, names,
// nesting) and runs ingest and then a prediction on a 2x2 grid of a
// 4-processor machine: every outcome must be a stored prediction or an
// error naming the file and a line, within time and memory bounds. Its
// seeds are the hostile traces; `just fuzz` runs it.
func FuzzPipeline(f *testing.F) {
	for _, tc := range hostile {
		m := tc.m
		f.Add(m.base, m.line, m.field, m.value, m.repeat)
	}
	f.Add(uint8(1), 200, "", "call_bsloop_               TIME=0.1 LINE=8      FILE=sor.fdv", 0)
	f.Add(uint8(2), 60, "AMViewRef", "0", 0)
	m := fourProcessors()
	f.Fuzz(func(t *testing.T, base uint8, line int, field, value string, repeat int) {
		if strings.ContainsAny(field, "\n=") {
			return
		}
		mut := mutation{base, line, field, value, repeat}
		path := mut.apply(t, t.TempDir(), maxFuzzRepeat)
		st := storetest.Open(t)
		err := bounded(t, func() error { return ingestAndPredict(st, path, m) })
		if err != nil && !strings.Contains(err.Error(), path+":") {
			t.Fatalf("%+v: an error that names no line of the trace: %v", mut, err)
		}
	})
}

// ingestAndPredict stores the trace and predicts it on a 2x2 grid.
func ingestAndPredict(st *store.Store, path string, m *machine.Machine) error {
	ctx := context.Background()
	info, err := ingest.Trace(ctx, st, path, nil)
	if err != nil {
		return err
	}
	tr, err := st.OpenTrace(ctx, info)
	if err != nil {
		return err
	}
	defer tr.Close()
	_, err = sim.Predict(tr.Header, tr, m, result.Config{Grid: []int{2, 2}}, sim.Options{TraceFile: path, MaxState: 64 << 20})
	return err
}

// The bounds of one fuzzed pipeline run: far above what the 2x2
// prediction of a small trace needs (milliseconds, a few MB), far below
// what the hostile traces took before their checks (minutes, gigabytes).
const (
	fuzzTime = 20 * time.Second
	fuzzHeap = 1 << 30
)

// bounded runs fn and fails the test when it runs longer than fuzzTime or
// the heap grows beyond fuzzHeap meanwhile.
func bounded(t *testing.T, fn func() error) error {
	done := make(chan error, 1)
	go func() { done <- fn() }()
	deadline := time.After(fuzzTime)
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	for {
		select {
		case err := <-done:
			return err
		case <-deadline:
			t.Fatalf("still running after %v", fuzzTime)
		case <-tick.C:
			if metrics.Read(sample); sample[0].Value.Uint64() > fuzzHeap {
				t.Fatalf("heap of %d MB, more than %d MB", sample[0].Value.Uint64()>>20, fuzzHeap>>20)
			}
		}
	}
}

// fourProcessors is a machine of 4 processors in one cluster.
func fourProcessors() *machine.Machine {
	var leaves []*machine.Node
	for i := range 4 {
		leaves = append(leaves, &machine.Node{Name: fmt.Sprint("p", i), Power: 1})
	}
	return &machine.Machine{Name: "four", Root: &machine.Node{Name: "four", TStart: 1e-5, TByte: 1e-8, Channels: 1, Children: leaves}}
}
