package main

import (
	"context"
	"os"

	"github.com/presage-dvm/presage/exports/query"
)

type listCmd struct {
	What string `arg:"" default:"runs" help:"What to list: ${listings}."`
}

// Run prints one listing of the store (store.List) as an aligned text
// table.
func (c *listCmd) Run(ctx context.Context, g *Globals) error {
	st, err := g.readStore()
	if err != nil {
		return err
	}
	defer st.Close()
	return query.Write(os.Stdout, query.Options{Format: "table", Digits: 6}, func(header func([]string) error, row func([]any) error) error {
		return st.List(ctx, c.What, header, row)
	})
}
