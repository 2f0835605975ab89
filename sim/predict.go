// Package sim predicts the performance of a DVM program on a machine
// configuration from its one-processor trace, reproducing the original DVM
// Predictor's model (MODEL.md §1.5-§7). Predict is the entry point for one
// prediction; Compile and Run serve sweeps, which run one trace under many
// configurations. The model itself lives in sim/engine, sim/layout,
// sim/section and sim/network.
package sim

import (
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/presage-dvm/presage/ingest/machine"
	"github.com/presage-dvm/presage/ingest/ptr"
	"github.com/presage-dvm/presage/sim/engine"
	"github.com/presage-dvm/presage/sim/network"
	"github.com/presage-dvm/presage/sim/result"
)

// Networks are the valid values of result.Config.Network: the original's
// channel-queue model of the machine file (the default, also meant by ""),
// and the bus and mesh models of the 2000 design (docs/networks.md).
var Networks = []string{"cluster", "bus", "mesh"}

// Options are switches for deliberate deviations from the original
// ([QUIRK] fixes), all off by default, plus the trace name for messages.
type Options struct {
	// Trace names the trace file in error messages ("jac.ptr:1234: ...").
	Trace string
	// CloseOpenIntervals closes intervals still open at the end of the
	// trace so that the report starts from Main (MODEL.md §11 item 22).
	CloseOpenIntervals bool
	// LoadWeights makes setelw_ install its load weights as the template's
	// coordinate weights, as MODEL.md §5.9 describes; the original's
	// reports are those of default weights.
	LoadWeights bool
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
// cfg.Network selects the network model (Networks; "" is "cluster"). The
// machine m is used as given: apply cfg.TStart, cfg.TByte and cfg.Power
// with m.WithOverrides before calling.
//
// The per-processor values of every interval (Interval.Procs) are rolled
// up over the children like the interval values, so that for every summed
// characteristic Σ_p value_p = the interval's value. Execution_time_p is
// processor p's own execution time in the interval plus its execution times
// in the nested intervals (the interval's Execution_time is instead the
// maximum over processors of the own time plus the children's
// Execution_times, MODEL.md §7.2).
func Predict(h *ptr.Header, calls ptr.Source, m *machine.Machine, cfg result.Config, opt Options) (*result.Run, error) {
	if h == nil || calls == nil || m == nil {
		return nil, errors.New("sim: Predict needs a trace header, calls and a machine")
	}
	e, cfg, err := start(h, m, cfg, opt)
	if err != nil {
		return nil, err
	}
	comp := engine.NewCompiler()
	var op engine.Op // one for all calls: the engine keeps a pointer to it
	for {
		c, err := calls.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		op = comp.Compile(c)
		if err := e.Exec(&op); err != nil {
			return nil, err
		}
	}
	return finish(e, cfg, opt), nil
}

// start checks the configuration and prepares an engine for it; the
// returned cfg has its grid and network filled in.
func start(h *ptr.Header, m *machine.Machine, cfg result.Config, opt Options) (*engine.Engine, result.Config, error) {
	name := opt.Trace
	if name == "" {
		name = "trace"
	}
	grid := cfg.Grid
	if len(grid) == 0 {
		grid = []int{1}
	}
	if err := checkGrid(grid, m, cfg.Machine); err != nil {
		return nil, cfg, err
	}
	kind, err := network.ParseKind(cfg.Network)
	if err != nil {
		return nil, cfg, err
	}
	e, err := engine.New(name, h, m, grid, engine.Options{CloseOpenIntervals: opt.CloseOpenIntervals, LoadWeights: opt.LoadWeights, Network: kind})
	if err != nil {
		return nil, cfg, err
	}
	cfg.Grid = grid
	cfg.Network = kind.String()
	if len(cfg.Options) == 0 {
		cfg.Options = opt.Names()
	}
	return e, cfg, nil
}

// finish integrates the interval tree into the run.
func finish(e *engine.Engine, cfg result.Config, opt Options) *result.Run {
	ivs, root, warnings := e.Finish()
	prog := strings.TrimSuffix(strings.TrimSuffix(filepath.Base(opt.Trace), ".gz"), ".ptr")
	if opt.Trace == "" {
		prog = ""
	}
	return &result.Run{Kind: result.Predicted, Program: prog, Config: cfg, Intervals: ivs, ReportRoot: root, Warnings: warnings}
}

// checkGrid rejects grids the original refuses: rank outside 1..4, a
// non-positive size, or more processors than the machine has leaves.
func checkGrid(grid []int, m *machine.Machine, machineName string) error {
	if len(grid) > 4 {
		return fmt.Errorf("grid %s has rank %d: at most 4 dimensions", result.GridString(grid), len(grid))
	}
	n := 1
	for _, d := range grid {
		if d < 1 {
			return fmt.Errorf("grid %s: every size must be positive", result.GridString(grid))
		}
		n *= d
	}
	if machineName == "" {
		machineName = m.Name
	}
	if have := m.Processors(); n > have {
		return fmt.Errorf("grid %s needs %d processors, machine %s has %d", result.GridString(grid), n, machineName, have)
	}
	return nil
}
