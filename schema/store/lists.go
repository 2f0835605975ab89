package store

import (
	"context"
	"fmt"
	"slices"
	"strings"
)

// The listings of presage list: one line per stored trace, machine file,
// statistics file, order trace, calibration, measured orders run, sweep
// or run, with the
// columns a person wants to see.
var listings = map[string]string{
	"traces":   `SELECT id, name, calls, bytes, proc_count AS procs, ingested_at FROM traces ORDER BY id`,
	"machines": `SELECT id, name, format, root, processors, ingested_at FROM machines ORDER BY id`,
	"sts":      `SELECT id, name, procs, grid, version, ingested_at FROM sts_files ORDER BY id`,
	"runs": `SELECT id, kind, engine, program, coalesce(machine, '') AS machine, grid, procs, coalesce(network, '') AS network,
		coalesce(tstart_us, '') AS tstart_us, coalesce(tbyte_us, '') AS tbyte_us, coalesce(power, '') AS power,
		printf('%.4f', execution_time) AS execution_time, CASE WHEN doubtful THEN 'doubtful' ELSE '' END AS note,
		coalesce(sweep_id, '') AS sweep, created_at FROM runs ORDER BY id`,
	"orders": `SELECT id, name, program, unit, orders, printf('%.6g', work) AS work, printf('%.6g', span) AS span,
		printf('%.4g', work / nullif(span, 0)) AS parallelism, ingested_at FROM order_traces ORDER BY id`,
	"calibrations": `SELECT c.id, c.name, c.rows, count(b.block) AS blocks,
		coalesce(group_concat(CASE WHEN b.flags <> '' THEN b.block || ' ' || b.flags END, '; '), '') AS flagged, c.ingested_at
		FROM calibrations c LEFT JOIN calibration_blocks b ON b.calibration_id = c.id GROUP BY c.id ORDER BY c.id`,
	"measured": `SELECT m.id, m.name, m.program, m.machine, m.workers, m.scheduler, m.migrate, m.orders, printf('%.4f', m.makespan) AS makespan,
		(SELECT min(r.id) FROM runs r WHERE r.measurement_id = m.id) AS run, m.started FROM order_measurements m ORDER BY m.id`,
	"sweeps": `SELECT s.id, s.kind, coalesce(t.name, o.name) AS trace, s.configs,
		(SELECT count(*) FROM runs r WHERE r.sweep_id = s.id) AS stored, s.created_at
		FROM sweeps s LEFT JOIN traces t ON t.id = s.trace_id LEFT JOIN order_traces o ON o.id = s.order_trace_id ORDER BY s.id`,
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
// Query does: its latest limit rows (every row when limit is 0), in id
// order. It returns how many rows the listing has in all.
func (s *Store) List(ctx context.Context, what string, limit int, header func(cols []string) error, row func(vals []any) error) (total int, err error) {
	q, ok := listings[what]
	if !ok {
		return 0, fmt.Errorf("list %q: expected one of %s", what, strings.Join(Listings(), ", "))
	}
	if err := s.db.GetContext(ctx, &total, `SELECT count(*) FROM (`+q+`)`); err != nil {
		return 0, err
	}
	if limit > 0 {
		q = fmt.Sprintf(`SELECT * FROM (SELECT * FROM (%s) ORDER BY id DESC LIMIT %d) ORDER BY id`, q, limit)
	}
	return total, s.Query(ctx, q, nil, header, row)
}
