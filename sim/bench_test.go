package sim

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/presage-dvm/presage/ingest/machinefile"
	"github.com/presage-dvm/presage/ingest/ptr"
	"github.com/presage-dvm/presage/ingest/tracegen"
	"github.com/presage-dvm/presage/internal/golden"
	"github.com/presage-dvm/presage/sim/events"
	"github.com/presage-dvm/presage/sim/machine"
	"github.com/presage-dvm/presage/sim/result"
	"github.com/presage-dvm/presage/sim/trace"
)

// benchTrace is a large trace held in memory, so that reading is not timed.
type benchTrace struct {
	name   string
	header *trace.Header
	calls  []*trace.Call
}

func readTrace(b *testing.B, path string) benchTrace {
	r, err := ptr.OpenFile(path)
	if err != nil {
		b.Fatal(err)
	}
	defer r.Close()
	calls, err := trace.ReadAll(r)
	if err != nil {
		b.Fatal(err)
	}
	return benchTrace{filepath.Base(path), r.Header(), calls}
}

// benchTraces are the 880K-call jac1d_x40000 and a 1M-call Jacobi trace of
// tracegen (N = 500), written to a temporary directory.
func benchTraces(b *testing.B) []benchTrace {
	gen := filepath.Join(b.TempDir(), "jacobi_1M.ptr.gz")
	if _, err := tracegen.WriteFile(gen, tracegen.Options{Program: tracegen.Jacobi, N: 500, Calls: 1_000_000, Seed: 1}); err != nil {
		b.Fatal(err)
	}
	return []benchTrace{readTrace(b, golden.Path(b, "traces", "jac1d_x40000.ptr.gz")), readTrace(b, gen)}
}

var benchGrids = [][]int{{2, 2}, {4, 4}, {8, 8}, {16, 16}}

func reportCalls(b *testing.B, calls int) {
	b.ReportMetric(float64(calls)*float64(b.N)/b.Elapsed().Seconds(), "calls/s")
}

// BenchmarkCompile compiles traces held in memory.
func BenchmarkCompile(b *testing.B) {
	for _, tr := range benchTraces(b) {
		b.Run(tr.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Compile(tr.header, trace.NewSliceSource(tr.calls)); err != nil {
					b.Fatal(err)
				}
			}
			reportCalls(b, len(tr.calls))
		})
	}
}

// BenchmarkSimulate simulates compiled traces, as a sweep does for every
// configuration.
func BenchmarkSimulate(b *testing.B) {
	m := loadMachine(b, "Predictor")
	for _, tr := range benchTraces(b) {
		prog, err := Compile(tr.header, trace.NewSliceSource(tr.calls))
		if err != nil {
			b.Fatal(err)
		}
		for _, g := range benchGrids {
			b.Run(fmt.Sprintf("%s/%s", tr.name, result.GridString(g)), func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					if _, err := Simulate(prog, m, result.Config{Grid: g}, Options{}); err != nil {
						b.Fatal(err)
					}
				}
				reportCalls(b, prog.Calls())
			})
		}
	}
}

// BenchmarkPredict is one prediction from calls in memory: compile and
// simulate call by call.
func BenchmarkPredict(b *testing.B) {
	m := loadMachine(b, "Predictor")
	tr := readTrace(b, golden.Path(b, "traces", "jac1d_x40000.ptr.gz"))
	for _, g := range [][]int{{2, 2}, {8, 8}} {
		b.Run(fmt.Sprintf("%s/%s", tr.name, result.GridString(g)), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Predict(tr.header, trace.NewSliceSource(tr.calls), m, result.Config{Grid: g}, Options{}); err != nil {
					b.Fatal(err)
				}
			}
			reportCalls(b, len(tr.calls))
		})
	}
}

// bigMachine is Predictor.par's cluster with 8192 nodes of two processors,
// enough for a 128x128 grid.
func bigMachine(b *testing.B) *machine.Machine {
	text := strings.Replace(readMachineText(b, "Predictor"), "{512 x mvsP2}", "{8192 x mvsP2}", 1)
	m, err := machinefile.Parse(strings.NewReader(text), "Predictor-16384.par")
	if err != nil {
		b.Fatal(err)
	}
	return m
}

func readMachineText(b *testing.B, name string) string {
	data, err := os.ReadFile(golden.Path(b, "machines", name+".par"))
	if err != nil {
		b.Fatal(err)
	}
	return string(data)
}

// BenchmarkGridScaling simulates the long real traces on growing grids: a
// prediction should cost about the same at 128x128 as at 2x2.
func BenchmarkGridScaling(b *testing.B) {
	m := bigMachine(b)
	for _, name := range []string{"jac1d_x40000.ptr.gz", "jac_e4_L500_it4000.ptr.gz"} {
		tr := readTrace(b, golden.Path(b, "traces", name))
		prog, err := Compile(tr.header, trace.NewSliceSource(tr.calls))
		if err != nil {
			b.Fatal(err)
		}
		for _, g := range [][]int{{2, 2}, {8, 8}, {32, 32}, {64, 64}, {128, 128}} {
			b.Run(fmt.Sprintf("%s/%s", tr.name, result.GridString(g)), func(b *testing.B) {
				for b.Loop() {
					if _, err := Simulate(prog, m, result.Config{Grid: g}, Options{}); err != nil {
						b.Fatal(err)
					}
				}
				reportCalls(b, prog.Calls())
			})
		}
	}
}

// BenchmarkSimulatePicture is BenchmarkSimulate of jac1d_x40000 without
// and with the run report's picture recorded, as `presage predict`
// records it (events.NewPictureSampler): the picture's cost in the
// engine, the two measured side by side.
func BenchmarkSimulatePicture(b *testing.B) {
	m := loadMachine(b, "Predictor")
	tr := readTrace(b, golden.Path(b, "traces", "jac1d_x40000.ptr.gz"))
	prog, err := Compile(tr.header, trace.NewSliceSource(tr.calls))
	if err != nil {
		b.Fatal(err)
	}
	for _, g := range [][]int{{2, 2}, {8, 8}} {
		cfg := result.Config{Grid: g}
		for _, picture := range []bool{false, true} {
			b.Run(fmt.Sprintf("%s/picture=%v", result.GridString(g), picture), func(b *testing.B) {
				for b.Loop() {
					var opt Options
					if picture {
						opt.Recorder = events.NewPictureSampler(cfg.Procs())
					}
					if _, err := Simulate(prog, m, cfg, opt); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
