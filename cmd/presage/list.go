package main

import (
	"fmt"
	"os"
	"text/tabwriter"
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
	cols, err := rows.Columns()
	if err != nil {
		return err
	}
	tw := tabwriter.NewWriter(os.Stdout, 0, 4, 2, ' ', 0)
	for i, col := range cols {
		fmt.Fprint(tw, col)
		if i < len(cols)-1 {
			fmt.Fprint(tw, "\t")
		}
	}
	fmt.Fprintln(tw)
	vals := make([]any, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			return err
		}
		for i, v := range vals {
			if b, ok := v.([]byte); ok {
				v = string(b)
			}
			fmt.Fprint(tw, v)
			if i < len(vals)-1 {
				fmt.Fprint(tw, "\t")
			}
		}
		fmt.Fprintln(tw)
	}
	if err := rows.Err(); err != nil {
		return err
	}
	return tw.Flush()
}
