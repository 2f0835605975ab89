package main

import (
	"context"
	"fmt"

	"github.com/presage-dvm/presage/internal/stage"
	"github.com/presage-dvm/presage/sim/result"
)

type predictCmd struct {
	Trace   string   `help:"Stored trace (name or id)." required:""`
	Machine string   `help:"Stored machine file (name or id)." required:""`
	Grid    string   `help:"Processor grid, e.g. 4, 2x2, 2x2x2 (default: the machine's topology or 1)."`
	TStart  *float64 `name:"tstart" help:"Override every cluster's message start-up time (microseconds, > 0)."`
	TByte   *float64 `name:"tbyte" help:"Override every cluster's time per byte (microseconds, > 0)."`
	Power   *float64 `help:"Override every processor's relative power (> 0)."`
}

// Validate checks the overrides given: an override is a positive finite
// number; without the flag, the machine file's values hold.
func (c *predictCmd) Validate() error {
	for _, o := range []struct {
		flag string
		v    *float64
	}{{"--tstart", c.TStart}, {"--tbyte", c.TByte}, {"--power", c.Power}} {
		if o.v != nil {
			if err := checkOverride(o.flag, *o.v); err != nil {
				return err
			}
		}
	}
	return nil
}

func (c *predictCmd) Run(ctx context.Context, g *Globals) error {
	value := func(v *float64, per float64) float64 {
		if v == nil {
			return 0 // the machine file's
		}
		return *v / per
	}
	cfg := result.Config{TStart: value(c.TStart, 1e6), TByte: value(c.TByte, 1e6), Power: value(c.Power, 1)}
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
	run, err := stage.PredictOne(ctx, st, stage.PredictRequest{Trace: c.Trace, Machine: c.Machine, Config: cfg})
	if err != nil {
		return err
	}
	root := run.Intervals[0].Values
	fmt.Printf("run %d: %s on %s, grid %s: execution time %.4f s, efficiency %.4f\n",
		run.ID, run.Program, run.Config.Machine, result.GridString(run.Config.Grid),
		root[result.ExecutionTime], root[result.Efficiency])
	for _, w := range run.Warnings {
		g.infof("warning: %s (%d times)", w.Message, w.Count)
	}
	return nil
}
