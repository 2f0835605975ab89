package sim

import (
	"fmt"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/presage-dvm/presage/internal/golden"
	"github.com/presage-dvm/presage/sim/events"
	"github.com/presage-dvm/presage/sim/result"
)

// checkingRecorder checks the events of a recorded simulation as they
// arrive: every processor's states follow one another without gap or
// overlap, and messages join processors of the grid.
type checkingRecorder struct {
	t        *testing.T
	L        int
	clock    []float64 // end of every processor's last state
	busy     []float64 // Σ durations per processor
	states   [events.NumStates]int
	messages int
	bad      int
}

func newCheckingRecorder(t *testing.T, L int) *checkingRecorder {
	return &checkingRecorder{t: t, L: L, clock: make([]float64, L), busy: make([]float64, L)}
}

func (r *checkingRecorder) State(s events.State, who events.Procs, start, dur float64) {
	if s == 0 || s >= events.NumStates || !(dur > 0) || who.Len() == 0 {
		r.fail("state %v of %d processors from %g for %g", s, who.Len(), start, dur)
		return
	}
	r.states[s]++
	for p := range who.Each() {
		if !closeTo(start, r.clock[p]) {
			r.fail("processor %d: %v starts at %.17g, its last state ended at %.17g", p, s, start, r.clock[p])
		}
		r.clock[p] = start + dur
		r.busy[p] += dur
	}
}

func (r *checkingRecorder) Message(m events.Message) {
	r.messages++
	if m.From < 0 || m.From >= r.L || m.To < 0 || m.To >= r.L || m.From == m.To || m.Bytes <= 0 || m.Arrive < m.Send {
		r.fail("message %+v", m)
	}
}

func (r *checkingRecorder) fail(format string, args ...any) {
	if r.bad++; r.bad <= 5 {
		r.t.Errorf(format, args...)
	}
}

func closeTo(a, b float64) bool {
	return math.Abs(a-b) <= 1e-9*math.Max(1, math.Max(math.Abs(a), math.Abs(b)))
}

// TestRecorderKeepsResults records the simulation of every short real
// trace on several grids and networks: the run is the same bit for bit as
// without a recorder, every processor's states are contiguous, and their
// durations add up to the processor's Execution_time in Main.
func TestRecorderKeepsResults(t *testing.T) {
	traces, err := filepath.Glob(golden.Path(t, "traces", "*.ptr*"))
	if err != nil || len(traces) == 0 {
		t.Fatalf("no traces: %v", err)
	}
	for _, f := range traces {
		name := filepath.Base(f)
		if strings.Contains(name, "x40000") || strings.Contains(name, "it4000") || strings.Contains(name, "x1000") {
			continue
		}
		prog := compileFile(t, f)
		for _, g := range [][]int{{1}, {4}, {2, 2}, {8, 8}} {
			for _, network := range []string{"cluster", "bus"} {
				t.Run(fmt.Sprintf("%s/%s/%s", name, result.GridString(g), network), func(t *testing.T) {
					checkRecorded(t, prog, result.Config{Grid: g, Network: network}, Options{TraceFile: name})
				})
			}
		}
	}
}

// statesOnly is a checking recorder that ignores messages, as the run
// report's sampler does: the engine then keeps its batch fast paths,
// names classes by their index and joins consecutive charges on every
// processor.
type statesOnly struct{ *checkingRecorder }

func (r statesOnly) StatesOfClasses(s events.State, classOf []int32, v events.ClassVersion, base float64, clocks []float64, dur float64) {
	for c, clk := range clocks {
		r.State(s, events.Class(classOf, int32(c), v), base+clk, dur)
	}
}

// checkRecorded checks a simulation recorded by a recorder of every
// message and by a StatesOnly one.
func checkRecorded(t *testing.T, prog *Program, cfg result.Config, opt Options) {
	m := loadMachine(t, "Predictor")
	plain, errP := Simulate(prog, m, cfg, opt)
	all := newCheckingRecorder(t, cfg.Procs())
	for _, rec := range []events.Recorder{all, statesOnly{newCheckingRecorder(t, cfg.Procs())}} {
		opt.Recorder = rec
		recorded, errR := Simulate(prog, m, cfg, opt)
		if fmt.Sprint(errP) != fmt.Sprint(errR) {
			t.Fatalf("%T: errors differ: without recorder %v, with %v", rec, errP, errR)
		}
		if errP != nil {
			return
		}
		if d := runDifference(plain, recorded); d != "" {
			t.Fatalf("%T: recording changed the run: %s", rec, d)
		}
		busy := all.busy
		if so, ok := rec.(statesOnly); ok {
			busy = so.busy
			if so.messages != 0 {
				t.Errorf("a StatesOnly recorder got %d messages", so.messages)
			}
		}
		for p, pv := range recorded.Intervals[0].Procs {
			if exec := pv.Values[result.ExecutionTime]; !closeTo(busy[p], exec) {
				t.Errorf("%T: processor %d: states last %.17g s, its Execution_time is %.17g", rec, p, busy[p], exec)
			}
		}
	}
}
