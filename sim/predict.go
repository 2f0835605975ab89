// Package sim predicts the performance of a DVM program on a machine
// configuration from its one-processor trace, reproducing the original DVM
// Predictor's model (docs/model.md §1.5-§7). It is a pure function of (trace,
// machine, configuration): no store, no files, no global state. Predict is
// the entry point for one prediction; Compile and Simulate serve sweeps,
// which simulate one compiled trace under many configurations. The model itself lives in sim/engine, sim/internal/layout,
// sim/internal/section and sim/network.
package sim

import (
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/presage-dvm/presage/sim/events"
	"github.com/presage-dvm/presage/sim/trace"

	"github.com/presage-dvm/presage/sim/engine"
	"github.com/presage-dvm/presage/sim/machine"
	"github.com/presage-dvm/presage/sim/network"
	"github.com/presage-dvm/presage/sim/result"
)

// Options are switches for deliberate deviations from the original
// ([QUIRK] fixes), all off by default, plus the trace name for messages.
type Options struct {
	// TraceFile names the trace file in error messages ("jac.ptr:1234: ...").
	TraceFile string
	// CloseOpenIntervals closes intervals still open at the end of the
	// trace so that the report starts from Main (docs/model.md §11 item 22).
	CloseOpenIntervals bool
	// LoadWeights makes setelw_ install its load weights as the template's
	// coordinate weights, as docs/model.md §5.9 describes; the original's
	// reports are those of default weights.
	LoadWeights bool
	// Recorder, when not nil, receives every state and message of the
	// simulated run as it is simulated (events.Recorder); the run's
	// numbers are the same with or without it.
	Recorder events.Recorder
	// MaxState bounds the memory of the simulator's per-processor state,
	// in bytes (0: engine.DefaultMaxState): a configuration that needs more
	// fails with an *engine.Error whose Limit is set, naming the grid and
	// what grew.
	MaxState int64
	// Stop, when not nil, is asked between steps of the simulation (every
	// stopEvery calls, a few milliseconds): a non-nil error ends the
	// simulation, which returns it. Commands pass their context's Err, so
	// that a signal stops a long prediction within a second rather than
	// at its end; the simulator keeps no state of its own for it.
	Stop func() error

	// reference simulates every processor on its own, and sends batches of
	// messages in order (engine.Options.Reference): what the property
	// tests compare the fast simulation with, bit for bit.
	reference bool
}

// Names lists the deviations that are switched on, for result.Config.
func (o Options) Names() []string {
	var n []string
	if o.CloseOpenIntervals {
		n = append(n, "close-open-intervals")
	}
	if o.LoadWeights {
		n = append(n, "load-weights")
	}
	return n
}

// Predict simulates the trace on the machine configuration: it is Compile
// followed by Run, done call by call so that a long trace read from a file
// is never held in memory. It is a pure function: no global state, safe to
// call concurrently for many configurations (each call needs its own calls
// Source).
//
// cfg is applied here and only here: its grid (default: the machine's
// topology, else one processor) and network (network.Names; "" is the
// first, the original's cluster model) are checked and filled in, and its
// non-zero TStart, TByte and Power replace the machine file's values, so
// the configuration stored with the run is the one simulated; cfg.Used
// records the values used (result.MachineValues). m itself is
// not changed.
//
// The per-processor values of every interval (Interval.Procs) are rolled
// up over the children like the interval values, so that for every summed
// characteristic Σ_p value_p = the interval's value. Execution_time_p is
// processor p's own execution time in the interval plus its execution times
// in the nested intervals (the interval's Execution_time is instead the
// maximum over processors of the own time plus the children's
// Execution_times, docs/model.md §7.2).
func Predict(h *trace.Header, calls trace.Source, m *machine.Machine, cfg result.Config, opt Options) (*result.Run, error) {
	if h == nil || calls == nil || m == nil {
		return nil, errors.New("sim: Predict needs a trace header, calls and a machine")
	}
	e, cfg, err := start(h, m, cfg, opt)
	if err != nil {
		return nil, err
	}
	comp := engine.NewCompiler()
	var op [1]engine.Op // one for all calls: the engine keeps a pointer to it
	for n := 0; ; n++ {
		if err := opt.stopped(n); err != nil {
			return nil, err
		}
		c, err := calls.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		op[0] = comp.Compile(c)
		if err := e.ExecAll(op[:]); err != nil {
			return nil, err
		}
	}
	return finish(e, cfg, opt)
}

// stopEvery is how many calls are simulated between two questions to
// Options.Stop: the slowest calls take microseconds, so a thousand of
// them take far less than the second a stop may take.
const stopEvery = 1024

// stopped returns Stop's error when n, the number of calls simulated, is
// a multiple of stopEvery; nil without a Stop.
func (o Options) stopped(n int) error {
	if n%stopEvery != 0 {
		return nil
	}
	return o.stop()
}

// stop returns Stop's error; nil without a Stop.
func (o Options) stop() error {
	if o.Stop == nil {
		return nil
	}
	return o.Stop()
}

// start applies the configuration (see Predict) and prepares an engine
// for it; the returned cfg has its grid and network filled in.
func start(h *trace.Header, m *machine.Machine, cfg result.Config, opt Options) (*engine.Engine, result.Config, error) {
	name := opt.TraceFile
	if name == "" {
		name = "trace"
	}
	if len(cfg.Grid) == 0 {
		cfg.Grid = DefaultGrid(m)
	}
	if err := checkConfig(cfg, m); err != nil {
		return nil, cfg, err
	}
	kind, err := network.ParseKind(cfg.Network)
	if err != nil {
		return nil, cfg, err
	}
	m = m.WithOverrides(cfg.TStart, cfg.TByte, cfg.Power)
	cfg.Used.TStart, cfg.Used.TByte = m.TopLevel()
	cfg.Used.Power = m.MeanPower(cfg.Procs())
	e, err := engine.New(name, h, m, cfg.Grid, engine.Options{CloseOpenIntervals: opt.CloseOpenIntervals, LoadWeights: opt.LoadWeights, Network: kind,
		Reference: opt.reference, Recorder: opt.Recorder, MaxState: opt.MaxState})
	if err != nil {
		return nil, cfg, err
	}
	cfg.Network = kind.String()
	if len(cfg.Options) == 0 {
		cfg.Options = opt.Names()
	}
	return e, cfg, nil
}

// finish integrates the interval tree into the run. Times that overflow
// (an override of 1e308 s, a power of 1e-320) make no run: the error says
// which characteristic of which interval went wrong.
func finish(e *engine.Engine, cfg result.Config, opt Options) (*result.Run, error) {
	ivs, root, warnings := e.Finish()
	prog := strings.TrimSuffix(strings.TrimSuffix(filepath.Base(opt.TraceFile), ".gz"), ".ptr")
	if opt.TraceFile == "" {
		prog = ""
	}
	for _, iv := range ivs {
		if c, v, ok := iv.NonFinite(); ok {
			return nil, fmt.Errorf("sim: %s of interval %d is %v on %s (tstart %g s, tbyte %g s, power %g): expected a configuration whose times stay finite",
				c, iv.ID, v, result.GridString(cfg.Grid), cfg.TStart, cfg.TByte, cfg.Power)
		}
	}
	return &result.Run{Kind: result.Predicted, Program: prog, Config: cfg, Intervals: ivs, ReportRoot: root, Warnings: warnings}, nil
}

// DefaultGrid is the grid of a configuration that names none: the
// topology of a flat machine file, else one processor.
func DefaultGrid(m *machine.Machine) []int {
	if len(m.Topology) > 0 {
		return append([]int(nil), m.Topology...)
	}
	return []int{1}
}

// checkConfig rejects configurations the original refuses (a grid of rank
// outside 1..4, a non-positive size, more processors than the machine has
// leaves) and overrides that are not positive finite numbers.
func checkConfig(cfg result.Config, m *machine.Machine) error {
	if err := result.CheckGrid(cfg.Grid); err != nil {
		return err
	}
	if err := cfg.CheckOverrides(); err != nil {
		return err
	}
	name := cfg.Machine
	if name == "" {
		name = m.Name
	}
	if n, have := cfg.Procs(), m.Processors(); n > have {
		return fmt.Errorf("grid %s needs %d processors, machine %s has %d", result.GridString(cfg.Grid), n, name, have)
	}
	return nil
}
