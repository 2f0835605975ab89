package main

import (
	"context"
	"fmt"

	"github.com/presage-dvm/presage/internal/stage"
	"github.com/presage-dvm/presage/sim/result"
)

type predictCmd struct {
	Trace   string  `help:"Stored trace (name or id)." required:""`
	Machine string  `help:"Stored machine file (name or id)." required:""`
	Grid    string  `help:"Processor grid, e.g. 4, 2x2, 2x2x2 (default: the machine's topology or 1)."`
	TStart  float64 `name:"tstart" help:"Override every cluster's message start-up time (microseconds)."`
	TByte   float64 `name:"tbyte" help:"Override every cluster's time per byte (microseconds)."`
	Power   float64 `help:"Override every processor's relative power."`
}

func (c *predictCmd) Run(ctx context.Context, g *Globals) error {
	cfg := result.Config{TStart: c.TStart / 1e6, TByte: c.TByte / 1e6, Power: c.Power}
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
