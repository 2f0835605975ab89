package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strconv"

	"github.com/presage-dvm/presage/ingest"
	"github.com/presage-dvm/presage/internal/stage"
	"github.com/presage-dvm/presage/schema/store"
	"github.com/presage-dvm/presage/sim/result"
)

// predictCmd predicts one configuration. The trace and the machine are
// each a stored name or id, or a file, ingested first unless its bytes are
// stored already: `presage predict jac.ptr.gz --machine Predictor.par`.
type predictCmd struct {
	TraceArg string `arg:"" optional:"" name:"trace-file" help:"Trace: a file (.ptr, plain or gzip; ingested unless stored already) or a stored name or id. Same as --trace."`
	Trace    string `help:"Stored trace (name or id) or trace file."`
	Machine  string `help:"Stored machine file (name or id) or machine file (ingested unless stored already)." required:""`
	Grid     string `help:"Processor grid, e.g. 4, 2x2, 2x2x2 (default: the machine's topology or 1)."`
	overrideFlags
	Again bool `help:"Predict and store the configuration even when the store holds its prediction already."`
}

// overrideFlags override the machine file's values in one configuration;
// a flag left out keeps the file's.
type overrideFlags struct {
	TStart *float64 `name:"tstart" help:"Override every cluster's message start-up time (microseconds, > 0 and at most 1e7)."`
	TByte  *float64 `name:"tbyte" help:"Override every cluster's time per byte (microseconds, > 0 and at most 1e6)."`
	Power  *float64 `help:"Override every processor's relative power (times the traced processor's speed, 0.001 to 100)."`
}

// check refuses an override that is not a positive finite number.
func (o overrideFlags) check() error {
	for _, f := range []struct {
		flag string
		v    *float64
	}{{"--tstart", o.TStart}, {"--tbyte", o.TByte}, {"--power", o.Power}} {
		if f.v != nil {
			if err := checkOverride(f.flag, *f.v); err != nil {
				return err
			}
		}
	}
	return nil
}

// config returns the overrides in the simulator's units (seconds), 0 for
// the machine file's values.
func (o overrideFlags) config() result.Config {
	value := func(v *float64, per float64) float64 {
		if v == nil {
			return 0
		}
		return *v / per
	}
	return result.Config{TStart: value(o.TStart, 1e6), TByte: value(o.TByte, 1e6), Power: value(o.Power, 1)}
}

// Validate checks the overrides given: an override is a positive finite
// number; without the flag, the machine file's values hold.
func (c *predictCmd) Validate() error {
	switch {
	case c.TraceArg == "" && c.Trace == "":
		return errors.New("missing the trace: give a trace file or stored name (presage predict TRACE --machine MACHINE)")
	case c.TraceArg != "" && c.Trace != "":
		return fmt.Errorf("two traces given (%s and --trace %s): give one", c.TraceArg, c.Trace)
	}
	return c.overrideFlags.check()
}

func (c *predictCmd) Run(ctx context.Context, g *Globals) error {
	cfg := c.overrideFlags.config()
	if c.Grid != "" {
		grid, err := result.ParseGrid(c.Grid)
		if err != nil {
			return err
		}
		cfg.Grid = grid
	}
	st, err := g.openStore()
	if err != nil {
		return err
	}
	defer st.Close()
	req := stage.PredictRequest{Config: cfg, Options: g.simOptions()}
	run, err := c.storeInputs(ctx, g, st, &req)
	if err != nil {
		return err
	}
	if run == nil && !c.Again {
		if run, err = stage.StoredPrediction(ctx, st, req); err != nil {
			return err
		}
		if run != nil {
			g.infof("run %d predicted this configuration already: shown again, not stored twice (--again predicts it anew)", run.ID)
		}
	}
	if run == nil {
		if run, err = stage.PredictOne(ctx, st, req); err != nil {
			return err
		}
	}
	main := run.Intervals[0].Values
	fmt.Printf("run %d: %s on %s, grid %s: execution time %.4f s, efficiency %.4f (Main)\n",
		run.ID, run.Program, run.Config.Machine, result.GridString(run.Config.Grid),
		main[result.ExecutionTime], main[result.Efficiency])
	if r := run.Interval(run.ReportRoot); r != nil && r.Parent != 0 {
		g.infof("the original's report starts at %s line %d (%.4f s): presage report html --run %d shows it from there", r.Type, r.Line, r.Values[result.ExecutionTime], run.ID)
	}
	for _, w := range run.Warnings {
		g.infof("warning: %s (%d times)", w.Message, w.Count)
	}
	return nil
}

// storeInputs ingests the trace and the machine where they name files,
// de-duplicated by content as `presage ingest` does, and sets how the
// store knows each in req: the id of an ingested file, else the name
// given. A new trace file is predicted as it is ingested
// (stage.PredictFile: parsed and simulated once), and that run is
// returned; else the run is nil.
func (c *predictCmd) storeInputs(ctx context.Context, g *Globals, st *store.Store, req *stage.PredictRequest) (*result.Run, error) {
	traceRef, machineRef := c.TraceArg, c.Machine
	if traceRef == "" {
		traceRef = c.Trace
	}
	if isFile(machineRef) {
		// The machine first: a new trace is predicted on it as it is
		// ingested.
		info, err := ingest.Machine(ctx, st, machineRef)
		if err != nil {
			return nil, err
		}
		if !info.Existing {
			g.infof("machine %s (id %d)", info.Name, info.ID)
		}
		machineRef = strconv.FormatInt(info.ID, 10)
	}
	req.Trace, req.Machine = traceRef, machineRef
	if !isFile(traceRef) {
		return nil, nil
	}
	update, finish := g.progress("ingest " + traceRef)
	info, run, err := stage.PredictFile(ctx, st, traceRef, *req, ingest.TraceOptions{Progress: update})
	finish()
	if err != nil {
		return nil, err
	}
	if !info.Existing {
		g.infof("trace %s: %d calls, %d bytes (id %d)", info.Name, info.Calls, info.Bytes, info.ID)
	}
	req.Trace = strconv.FormatInt(info.ID, 10)
	return run, nil
}

// isFile tells whether ref names a regular file: a file wins over a
// stored name, as the path a user types is what they mean.
func isFile(ref string) bool {
	fi, err := os.Stat(ref)
	return err == nil && fi.Mode().IsRegular()
}
