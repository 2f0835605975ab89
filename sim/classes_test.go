package sim

import (
	"fmt"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/presage-dvm/presage/ingest/tracegen"
	"github.com/presage-dvm/presage/internal/golden"
	"github.com/presage-dvm/presage/sim/machine"
	"github.com/presage-dvm/presage/sim/result"
	"github.com/presage-dvm/presage/sim/trace"
)

// classGrids are the grids of the property test: one processor, square
// grids and a non-square one.
var classGrids = [][]int{{1}, {2, 2}, {4, 4}, {8, 8}, {3, 5}}

// TestClassesMatchPerProcessor is the property of processor classes: the
// class-based simulation gives, bit for bit, every interval value and every
// per-processor value of the simulation of one class per processor, on
// every real trace and on generated ones, on the cluster network and on
// the bus and mesh models.
func TestClassesMatchPerProcessor(t *testing.T) {
	traces, err := filepath.Glob(golden.Path(t, "traces", "*.ptr*"))
	if err != nil || len(traces) == 0 {
		t.Fatalf("no traces: %v", err)
	}
	traces = append(traces, generatedTraces(t)...)
	m := loadMachine(t, "Predictor")
	for _, f := range traces {
		name := filepath.Base(f)
		if strings.Contains(name, "x40000") || strings.Contains(name, "it4000") {
			continue // long traces: BenchmarkGridScaling runs them
		}
		prog := compileFile(t, f)
		for _, g := range classGrids {
			for _, network := range []string{"cluster", "bus", "mesh"} {
				if network != "cluster" && len(g) != 2 {
					continue
				}
				t.Run(fmt.Sprintf("%s/%s/%s", name, result.GridString(g), network), func(t *testing.T) {
					compareClasses(t, prog, m, result.Config{Grid: g, Network: network}, Options{TraceFile: name})
				})
			}
		}
	}
}

// generatedTraces writes tracegen's programs: a Jacobi relaxation whose
// size does not divide evenly over the grids, one with intervals, and a
// Gauss elimination with remote access and a shrinking loop.
func generatedTraces(t *testing.T) []string {
	var files []string
	for i, o := range []tracegen.Options{
		{Program: tracegen.Jacobi, N: 67, Iterations: 6, Seed: 1},
		{Program: tracegen.Jacobi, N: 64, Iterations: 4, Intervals: true, Seed: 2},
		{Program: tracegen.Gauss, N: 37, Iterations: 2, Seed: 3},
	} {
		f := filepath.Join(t.TempDir(), fmt.Sprintf("gen%d_%s.ptr", i, o.Program))
		if _, err := tracegen.WriteFile(f, o); err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	return files
}

// compareClasses simulates prog both ways and reports every difference.
func compareClasses(t *testing.T, prog *Program, m *machine.Machine, cfg result.Config, opt Options) {
	t.Helper()
	classes, errC := Simulate(prog, m, cfg, opt)
	opt.reference = true
	each, errE := Simulate(prog, m, cfg, opt)
	if fmt.Sprint(errC) != fmt.Sprint(errE) {
		t.Fatalf("errors differ: classes %v, per processor %v", errC, errE)
	}
	if errC != nil {
		return
	}
	if d := runDifference(classes, each); d != "" {
		t.Error(d)
	}
}

// runDifference describes the first bitwise difference of two runs, ""
// when they are identical.
func runDifference(a, b *result.Run) string {
	if len(a.Intervals) != len(b.Intervals) || a.ReportRoot != b.ReportRoot {
		return fmt.Sprintf("%d intervals (root %d) against %d (root %d)", len(a.Intervals), a.ReportRoot, len(b.Intervals), b.ReportRoot)
	}
	if fmt.Sprint(a.Warnings) != fmt.Sprint(b.Warnings) {
		return fmt.Sprintf("warnings %v against %v", a.Warnings, b.Warnings)
	}
	for i, x := range a.Intervals {
		y := b.Intervals[i]
		if c, ok := firstDifference(&x.Values, &y.Values); ok {
			return fmt.Sprintf("interval %d: %s = %v against %v", x.ID, c, x.Values[c], y.Values[c])
		}
		if len(x.Procs) != len(y.Procs) {
			return fmt.Sprintf("interval %d: %d processors against %d", x.ID, len(x.Procs), len(y.Procs))
		}
		for p := range x.Procs {
			if c, ok := firstDifference(x.Procs[p].Values, y.Procs[p].Values); ok {
				return fmt.Sprintf("interval %d, processor %d: %s = %v against %v", x.ID, p, c, x.Procs[p].Values[c], y.Procs[p].Values[c])
			}
		}
	}
	return ""
}

func firstDifference(a, b *result.Values) (result.Char, bool) {
	for c := range a {
		if math.Float64bits(a[c]) != math.Float64bits(b[c]) {
			return result.Char(c), true
		}
	}
	return 0, false
}

// TestClassesMatchOnHandMadeCases covers what the traces may miss: a sub-
// processor system, heterogeneous processors (a power override keeps them
// equal, so the machine itself differs), and an I/O block.
func TestClassesMatchOnHandMadeCases(t *testing.T) {
	m := parseMachine(t, "cluster = c;\nc = {3 x n};\nc.TStart = 10;\nc.TByte = 0.01;\nn = {2 x p};\nn.TStart = 1;\nn.TByte = 0.001;\np = 1.00;\n")
	calls := append(setup(),
		call(30, "crtps_", 0.001, 0.0001, "PSRef=0; StaticSign=0;\nInitIndexArray[0]=1;\nLastIndexArray[0]=3;", "PSRef=f1;"),
		call(31, "biof_", 0.002, 0.0001, "", ""),
		call(32, "dvm_printf", 0.003, 0.001, "", ""),
		call(33, "eiof_", 0.002, 0.0001, "", ""),
		call(34, "strtsh_", 0.002, 0.0001, "ShadowGroupRef=d1;", ""),
		call(35, "waitsh_", 0, 0, "ShadowGroupRef=d1;", ""),
	)
	prog, err := Compile(&trace.Header{RootLine: 1, RootFile: "c.cdv"}, trace.NewSliceSource(calls))
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range [][]int{{6}, {2, 3}, {4}} {
		t.Run(result.GridString(g), func(t *testing.T) {
			compareClasses(t, prog, m, result.Config{Grid: g}, Options{TraceFile: "c.ptr"})
		})
	}
}
