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
	// loose: charges may be summed apart (Tally), so a processor's states
	// are not all reported one after the other.
	loose bool
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
		if !r.loose && !closeTo(start, r.clock[p]) {
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
// names classes by their index and sums the charges within a column
// (Tally). With a column width of 0 it opens no column, so that every
// charge is reported and checked alone; with one, the tallies' time is
// added to every processor's busy time.
type statesOnly struct {
	*checkingRecorder
	width float64
}

// tallying is a statesOnly recorder of columns of the given width.
func tallying(t *testing.T, L int, width float64) statesOnly {
	r := newCheckingRecorder(t, L)
	r.loose = true
	return statesOnly{r, width}
}

func (r statesOnly) Window(t float64) (lo, hi float64) {
	if r.width == 0 {
		return 0, 0
	}
	col := math.Floor(t / r.width)
	return col * r.width, (col + 1) * r.width
}

func (r statesOnly) Tallied(t *events.Tally, who events.Procs) {
	if t.End != 0 && (t.End < t.Lo || t.End > t.Hi) {
		r.fail("a tally of [%g, %g) ends at %g", t.Lo, t.Hi, t.End)
	}
	for _, d := range t.T {
		for p := range who.Each() {
			r.busy[p] += d
		}
	}
	*t = events.Tally{}
}

// checkRecorded checks a simulation recorded by a recorder of every
// message and by a StatesOnly one.
func checkRecorded(t *testing.T, prog *Program, cfg result.Config, opt Options) {
	m := loadMachine(t, "Predictor")
	plain, errP := Simulate(prog, m, cfg, opt)
	all := newCheckingRecorder(t, cfg.Procs())
	for _, rec := range []events.Recorder{all, statesOnly{newCheckingRecorder(t, cfg.Procs()), 0}, tallying(t, cfg.Procs(), 1e-3)} {
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

// everyCharge hides that its Sampler keeps time per column: the engine
// then reports every charge alone, by member lists, as to a recorder of
// messages.
type everyCharge struct{ sm *events.Sampler }

func (r everyCharge) State(s events.State, who events.Procs, start, dur float64) {
	r.sm.State(s, who, start, dur)
}

func (r everyCharge) Message(m events.Message) { r.sm.Message(m) }

// TestTalliedPictureIsPerCharge: the run report's picture the engine
// records by summing charges within a column (events.Tally) is the
// sampler's picture of every charge reported alone, each state's share of
// every cell within 1/255 (charges are rounded to nanoseconds once per
// column instead of at both ends), and the same dominant state wherever
// it leads by more than that. Every short real trace but jac2d, whose
// picture ends later per charge at 8x8: its last message arrives after
// every processor's last state, and a StatesOnly recorder sees no
// messages.
func TestTalliedPictureIsPerCharge(t *testing.T) {
	m := loadMachine(t, "Predictor")
	for _, name := range []string{"jac_e4.ptr", "sor.ptr", "tasks.ptr", "jac1d_x1000.ptr.gz", "mgrid.ptr", "adi.ptr", "gauswh.ptr", "jac3d_perf.ptr", "jacas_e4.ptr", "sor_e4.ptr", "gaush_hpf.ptr", "gauswh_lw.ptr", "jac.ptr", "jac1d.ptr", "jac2d_perf.ptr", "jacas.ptr", "jach_hpf.ptr", "task2j.ptr", "taskst.ptr", "testfdvm.ptr", "tsk_ra.ptr"} {
		prog := compileFile(t, golden.Path(t, "traces", name))
		for _, g := range [][]int{{1}, {2, 2}, {8, 8}, {3, 5}} {
			cfg := result.Config{Grid: g}
			tallied := events.NewPictureSampler(cfg.Procs())
			each := everyCharge{events.NewPictureSampler(cfg.Procs())}
			for _, rec := range []events.Recorder{tallied, each} {
				if _, err := Simulate(prog, m, cfg, Options{TraceFile: name, Recorder: rec}); err != nil {
					t.Fatalf("%s %v: %v", name, g, err)
				}
			}
			a, b := tallied.Sample(), each.sm.Sample()
			if a.Bucket != b.Bucket || len(a.States) != len(b.States) || a.End-b.End > 1 || b.End-a.End > 1 {
				t.Fatalf("%s %v: bucket %d, %d rows, end %d; per charge %d, %d, %d", name, g, a.Bucket, len(a.States), a.End, b.Bucket, len(b.States), b.End)
			}
			for r := range a.States {
				if len(a.States[r]) != len(b.States[r]) {
					t.Fatalf("%s %v: row %d has %d columns, %d per charge", name, g, r, len(a.States[r]), len(b.States[r]))
				}
				for c := range a.States[r] {
					ma, mb := a.Mixes[r][c], b.Mixes[r][c]
					for s := range ma {
						if d := int(ma[s]) - int(mb[s]); d < -1 || d > 1 {
							t.Fatalf("%s %v: row %d column %d: shares %v, per charge %v", name, g, r, c, ma, mb)
						}
					}
					if a.States[r][c] != b.States[r][c] && lead(mb) > 2 {
						t.Errorf("%s %v: row %d column %d: %v, per charge %v (shares %v)", name, g, r, c, a.States[r][c], b.States[r][c], mb)
					}
				}
			}
		}
	}
}

// lead is how far the largest share of m is ahead of the next, in 255ths.
func lead(m events.Mix) int {
	first, second := 0, 0
	for _, v := range m[1:] {
		switch x := int(v); {
		case x > first:
			first, second = x, first
		case x > second:
			second = x
		}
	}
	return first - second
}
