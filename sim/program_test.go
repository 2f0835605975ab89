package sim

import (
	"github.com/presage-dvm/presage/sim/trace"
	"reflect"
	"sync"
	"testing"

	"github.com/presage-dvm/presage/ingest/ptr"
	"github.com/presage-dvm/presage/internal/golden"
	"github.com/presage-dvm/presage/sim/result"
)

// compileFile compiles a trace file.
func compileFile(t testing.TB, path string) *Program {
	t.Helper()
	r, err := ptr.OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	prog, err := Compile(r.Header(), r)
	if err != nil {
		t.Fatal(err)
	}
	return prog
}

// TestRunEqualsPredict: one compiled program run concurrently under several
// configurations gives exactly what Predict gives from the file.
func TestRunEqualsPredict(t *testing.T) {
	for _, tr := range []string{"jac.ptr", "sor_e4.ptr", "adi.ptr", "tasks.ptr"} {
		path := golden.Path(t, "traces", tr)
		prog := compileFile(t, path)
		m := loadMachine(t, "Predictor")
		configs := []result.Config{
			{Grid: []int{2, 2}}, {Grid: []int{4}, Network: "bus"}, {Grid: []int{4, 4}, Network: "mesh"}, {Grid: []int{8, 8}},
		}
		runs := make([]*result.Run, len(configs))
		errs := make([]error, len(configs))
		var wg sync.WaitGroup
		for i, cfg := range configs {
			wg.Go(func() { runs[i], errs[i] = Simulate(prog, m, cfg, Options{TraceFile: tr}) })
		}
		wg.Wait()
		for i, cfg := range configs {
			if errs[i] != nil {
				t.Fatalf("%s %v: %v", tr, cfg, errs[i])
			}
			r, err := ptr.OpenFile(path)
			if err != nil {
				t.Fatal(err)
			}
			want, err := Predict(r.Header(), r, m, cfg, Options{TraceFile: tr})
			r.Close()
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(runs[i], want) {
				t.Errorf("%s %v: Run differs from Predict", tr, cfg)
			}
		}
	}
}

// TestCompileErrors: a defect found while running a compiled program names
// the file, the trace line and the parameter, as Predict does.
func TestCompileErrors(t *testing.T) {
	h := &trace.Header{}
	calls := []*trace.Call{{Func: "crtpl_", TraceLine: 7, OutText: "LoopRef=10;", InText: "Rank=x;"}}
	calls[0].Out, _ = trace.ParseParams(calls[0].OutText)
	calls[0].In, _ = trace.ParseParams(calls[0].InText)
	prog, err := Compile(h, trace.NewSliceSource(calls))
	if err != nil {
		t.Fatal(err)
	}
	_, err = Simulate(prog, loadMachine(t, "Predictor"), result.Config{Grid: []int{2}}, Options{TraceFile: "bad.ptr"})
	want := `bad.ptr:7: crtpl_: parameter 'Rank'="x" is not a number`
	if err == nil || err.Error() != want {
		t.Fatalf("error %v, want %s", err, want)
	}
}
