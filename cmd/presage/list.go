package main

import (
	"fmt"
	"os"
	"text/tabwriter"

	"github.com/presage-dvm/presage/exports/query"
)

type listCmd struct {
	What string `arg:"" enum:"traces,machines,runs,sts" default:"runs" help:"traces, machines, sts or runs."`
}

var listQueries = map[string]string{
	"traces":   `SELECT id, name, calls, bytes, proc_count AS procs, ingested_at FROM traces ORDER BY id`,
	"machines": `SELECT id, name, format, root, processors, ingested_at FROM machines ORDER BY id`,
	"sts":      `SELECT id, name, procs, grid, version, ingested_at FROM sts_files ORDER BY id`,
	"runs": `SELECT id, kind, program, coalesce(machine, '') AS machine, grid, procs,
		printf('%.4f', execution_time) AS execution_time, created_at FROM runs ORDER BY id`,
}

func (c *listCmd) Run(g *Globals) error {
	db, err := g.openStore()
	if err != nil {
		return err
	}
	defer db.Close()
	rows, err := db.Query(listQueries[c.What])
	if err != nil {
		return err
	}
	defer rows.Close()
	tw := tabwriter.NewWriter(os.Stdout, 0, 4, 2, ' ', 0)
	if err := query.Each(rows, func(cols []string) error {
		printRow(tw, cols)
		return nil
	}, func(vals []any) error {
		printRow(tw, vals)
		return nil
	}); err != nil {
		return err
	}
	return tw.Flush()
}

// printRow writes one line of the listing: the fields separated by tabs,
// text columns (which the driver may give as []byte) as text.
func printRow[T any](tw *tabwriter.Writer, fields []T) {
	for i, f := range fields {
		var v any = f
		if b, ok := v.([]byte); ok {
			v = string(b)
		}
		fmt.Fprint(tw, v)
		if i < len(fields)-1 {
			fmt.Fprint(tw, "\t")
		}
	}
	fmt.Fprintln(tw)
}
