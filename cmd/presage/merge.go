package main

import (
	"context"
	"errors"
	"fmt"

	"github.com/presage-dvm/presage/schema/store"
)

type mergeCmd struct {
	Stores []string `arg:"" help:"Stores to merge (e.g. the shard-*.db of a sweep)." type:"existingfile"`
	Into   string   `help:"Destination store (created if missing)." required:"" type:"path"`
}

func (c *mergeCmd) Run(ctx context.Context, g *Globals) error {
	st, err := store.Open(c.Into)
	var notStore *store.NotStoreError
	if errors.As(err, &notStore) {
		return fmt.Errorf("--into %w", err)
	}
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
