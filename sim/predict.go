// Package sim predicts the performance of a DVM program on a machine
// configuration from its one-processor trace, reproducing the original DVM
// Predictor's model (MODEL.md §1.5-§7). Predict is the entry point; the
// model itself lives in sim/engine, sim/layout and sim/section.
package sim

import (
	"errors"
	"fmt"
	"io"

	"github.com/presage-dvm/presage/ingest/machine"
	"github.com/presage-dvm/presage/ingest/ptr"
	"github.com/presage-dvm/presage/sim/engine"
	"github.com/presage-dvm/presage/sim/result"
)

// Options are switches for deliberate deviations from the original
// ([QUIRK] fixes), all off by default, plus the trace name for messages.
type Options struct {
	// Trace names the trace file in error messages ("jac.ptr:1234: ...").
	Trace string
	// CloseOpenIntervals closes intervals still open at the end of the
	// trace so that the report starts from Main (MODEL.md §11 item 22).
	CloseOpenIntervals bool
}

// Names lists the deviations that are switched on, for result.Config.
func (o Options) Names() []string {
	var n []string
	if o.CloseOpenIntervals {
		n = append(n, "close-open-intervals")
	}
	return n
}

// Predict simulates the trace on the machine configuration. It is a pure
// function: no global state, safe to call concurrently for many
// configurations (each call needs its own calls Source).
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
	name := opt.Trace
	if name == "" {
		name = "trace"
	}
	grid := cfg.Grid
	if len(grid) == 0 {
		grid = []int{1}
	}
	if err := checkGrid(grid, m, cfg.Machine); err != nil {
		return nil, err
	}
	e, err := engine.New(name, h, m, grid, engine.Options{CloseOpenIntervals: opt.CloseOpenIntervals})
	if err != nil {
		return nil, err
	}
	for {
		c, err := calls.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		if err := e.Step(c); err != nil {
			return nil, err
		}
	}
	ivs, root, warnings := e.Finish()
	cfg.Grid = grid
	if len(cfg.Options) == 0 {
		cfg.Options = opt.Names()
	}
	return &result.Run{Kind: result.Predicted, Config: cfg, Intervals: ivs, ReportRoot: root, Warnings: warnings}, nil
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
