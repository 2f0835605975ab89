package main

import (
	"context"
)

// callsCmd writes the calls table rows of stored traces, which an ingest
// leaves out (one SQL row per call: eight times the pack's room) for SQL
// users: `presage calls jac1d` then `presage query func_profile`.
type callsCmd struct {
	Traces []string `arg:"" help:"Stored traces (name or id)."`
}

func (c *callsCmd) Run(ctx context.Context, g *Globals) error {
	st, err := g.existingStore()
	if err != nil {
		return err
	}
	defer st.Close()
	for _, name := range c.Traces {
		info, err := st.Trace(name)
		if err != nil {
			return err
		}
		n, err := st.MaterializeCalls(ctx, info)
		if err != nil {
			return err
		}
		if n == 0 {
			g.infof("trace %s (id %d): the calls table holds its calls already", info.Name, info.ID)
			continue
		}
		g.infof("trace %s (id %d): %d calls written to the calls table", info.Name, info.ID, n)
	}
	return nil
}
