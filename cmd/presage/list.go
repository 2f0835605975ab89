package main

import (
	"context"
	"os"

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

// Run prints one table of the store as an aligned text table.
func (c *listCmd) Run(ctx context.Context, g *Globals) error {
	db, err := g.openStore()
	if err != nil {
		return err
	}
	defer db.Close()
	return query.Run(ctx, db, listQueries[c.What], nil, "table", os.Stdout)
}
