package main

import (
	"context"
	"os"

	"github.com/presage-dvm/presage/exports/query"
)

type listCmd struct {
	What  string `arg:"" default:"runs" help:"What to list: ${listings}."`
	Limit int    `help:"List only the latest N (0: all)." default:"50"`
}

func (c *listCmd) Validate() error { return checkFlags(atLeast("--limit", c.Limit, 0)) }

// Run prints one listing of the store (store.List) as an aligned text
// table.
func (c *listCmd) Run(ctx context.Context, g *Globals) error {
	st, err := g.readStore()
	if err != nil {
		return err
	}
	defer st.Close()
	var total int
	err = query.Write(os.Stdout, query.Options{Format: "table", Digits: 6}, func(header func([]string) error, row func([]any) error) error {
		total, err = st.List(ctx, c.What, c.Limit, header, row)
		return err
	})
	if err == nil && c.Limit > 0 && total > c.Limit {
		g.infof("the latest %d of %d %s (--limit 0 lists all)", c.Limit, total, c.What)
	}
	return err
}
