package store

import (
	"context"
	"fmt"
	"slices"
	"strings"
)

// The listings of presage list: one line per stored trace, machine file,
// statistics file or run, with the columns a person wants to see.
var listings = map[string]string{
	"traces":   `SELECT id, name, calls, bytes, proc_count AS procs, ingested_at FROM traces ORDER BY id`,
	"machines": `SELECT id, name, format, root, processors, ingested_at FROM machines ORDER BY id`,
	"sts":      `SELECT id, name, procs, grid, version, ingested_at FROM sts_files ORDER BY id`,
	"runs": `SELECT id, kind, program, coalesce(machine, '') AS machine, grid, procs,
		printf('%.4f', execution_time) AS execution_time, created_at FROM runs ORDER BY id`,
}

// Listings are the names List knows, sorted.
func Listings() []string {
	names := make([]string, 0, len(listings))
	for name := range listings {
		names = append(names, name)
	}
	slices.Sort(names)
	return names
}

// List hands the listing what (one of Listings) to header and row, as
// Query does.
func (s *Store) List(ctx context.Context, what string, header func(cols []string) error, row func(vals []any) error) error {
	q, ok := listings[what]
	if !ok {
		return fmt.Errorf("list %q: expected one of %s", what, strings.Join(Listings(), ", "))
	}
	return s.Query(ctx, q, nil, header, row)
}
