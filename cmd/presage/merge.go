package main

import (
	"context"
	"fmt"
	"path/filepath"

	"github.com/presage-dvm/presage/schema/store"
)

type mergeCmd struct {
	Stores []string `arg:"" help:"Stores to merge (e.g. the shard-*.db of a sweep)." type:"existingfile"`
	Into   string   `help:"Destination store (created if missing)." required:"" type:"path"`
}

func (c *mergeCmd) Run(ctx context.Context, g *Globals) error {
	into, err := filepath.Abs(c.Into)
	if err != nil {
		return err
	}
	for _, s := range c.Stores {
		if abs, err := filepath.Abs(s); err == nil && abs == into {
			return fmt.Errorf("merge: %s is both a source and the destination", s)
		}
	}
	st, err := store.Open(c.Into)
	if err != nil {
		return err
	}
	defer st.Close()
	sum, err := st.Merge(ctx, c.Stores)
	if err != nil {
		return err
	}
	fmt.Printf("merged %d stores into %s: %d inputs, %d sweeps, %d runs added (%d duplicate runs and %d inputs or sweeps already there), %d rows\n",
		sum.Stores, c.Into, sum.Inputs, sum.Sweeps, sum.Runs, sum.Dups, sum.Existing, sum.Rows)
	return nil
}
