package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/presage-dvm/presage/exports/query"
	"github.com/presage-dvm/presage/queries"
)

type queryCmd struct {
	SQL    string            `arg:"" optional:"" help:"A SELECT statement (named parameters as :name)."`
	Name   string            `help:"Run the named query NAME (see --list)." short:"n"`
	Param  map[string]string `help:"Query parameter, e.g. --param run=3." short:"p"`
	List   bool              `help:"Describe the named queries."`
	Format string            `help:"Output format." enum:"table,csv,json" default:"table"`
	Digits int               `help:"Significant digits of the numbers in the table format (0: all); csv and json are always exact." default:"6"`
}

// Run executes a query on the store, read-only: a query cannot change it.
func (c *queryCmd) Run(ctx context.Context, g *Globals) error {
	if c.List {
		for _, q := range queries.List() {
			fmt.Println(q.Describe())
			fmt.Println()
		}
		return nil
	}
	if (c.SQL == "") == (c.Name == "") {
		return errors.New("query: give either a SQL statement or --name NAME (--list shows the names)")
	}
	st, err := g.readStore()
	if err != nil {
		return err
	}
	defer st.Close()
	args := make(map[string]any, len(c.Param))
	for k, v := range c.Param {
		args[strings.TrimPrefix(k, ":")] = v
	}
	sqlText := c.SQL
	if c.Name != "" {
		q, err := queries.Get(c.Name)
		if err != nil {
			return err
		}
		if args, err = q.Args(args); err != nil {
			return err
		}
		sqlText = q.SQL
	}
	return query.Run(ctx, st, sqlText, args, c.options(), os.Stdout)
}

func (c *queryCmd) options() query.Options { return query.Options{Format: c.Format, Digits: c.Digits} }

func (c *queryCmd) Validate() error {
	return checkFlags(between("--digits", c.Digits, 0, 17))
}
