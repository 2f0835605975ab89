package store

import (
	"context"
	"fmt"

	"github.com/presage-dvm/presage/schema"
	"github.com/presage-dvm/presage/schema/stored"
)

// The exported tables (runs, intervals, the tidy values table and the wide
// interval table) are read one sweep at a time and handed over row by row
// to a callback, so that an export holds one batch of rows in memory, not
// a sweep. Sweep 0 stands for the runs outside any sweep, as in the views.

const runRowColumns = `run_id, sweep_id, kind, program, trace_id, sts_id, machine, grid, grid_rank, grid_d1,
	grid_d2, grid_d3, grid_d4, procs, network, tstart_us, tbyte_us, power, tstart_used_us, tbyte_used_us, power_used,
	options, report_root, execution_time, cost, doubtful, created_at`

// runRowFields are the scan destinations of runRowColumns.
func runRowFields(r *stored.RunRow) []any {
	return []any{&r.ID, &r.SweepID, &r.Kind, &r.Program, &r.TraceID, &r.StsID, &r.Machine, &r.Grid,
		&r.GridRank, &r.GridD1, &r.GridD2, &r.GridD3, &r.GridD4, &r.Procs, &r.Network, &r.TStartUS,
		&r.TByteUS, &r.Power, &r.TStartUsedUS, &r.TByteUsedUS, &r.PowerUsed, &r.Options, &r.ReportRoot, &r.ExecutionTime, &r.Cost, &r.Doubtful, &r.CreatedAt}
}

const intervalRowColumns = `run_id, interval_id, parent, ord, level, type, file, line, expr, count, path`

// intervalRowFields are the scan destinations of intervalRowColumns.
func intervalRowFields(iv *stored.IntervalRow) []any {
	return []any{&iv.RunID, &iv.ID, &iv.Parent, &iv.Ord, &iv.Level, &iv.Type, &iv.File, &iv.Line,
		&iv.Expr, &iv.Count, &iv.Path}
}

// ExportSweeps returns the sweeps an export covers: only alone (which must
// have runs) or, for only 0, every sweep that has runs, 0 standing for the
// runs outside any sweep. It refuses a store whose schema is older than
// this build's: the views the exports follow may differ.
func (s *Store) ExportSweeps(ctx context.Context, only int64) ([]int64, error) {
	v, err := schema.CurrentVersion(s.q)
	if err != nil {
		return nil, err
	}
	if v < schema.Version {
		return nil, fmt.Errorf("store schema version %d is older than %d: open it once with presage (not read-only) to migrate it", v, schema.Version)
	}
	var ids []int64
	if only != 0 {
		err = s.q.SelectContext(ctx, &ids, `SELECT DISTINCT sweep_id FROM v_runs WHERE sweep_id = ?`, only)
		if err == nil && len(ids) == 0 {
			err = fmt.Errorf("sweep %d: no runs", only)
		}
		return ids, err
	}
	err = s.q.SelectContext(ctx, &ids, `SELECT DISTINCT sweep_id FROM v_runs ORDER BY sweep_id`)
	return ids, err
}

// ExportRowsEstimate is about the rows an export of the sweeps only
// selects (0: all) writes, from the tables' sizes, for a progress bar:
// the runs, their intervals twice (the intervals and the wide table),
// their values and at most one value per processor of every series of
// per-processor values.
func (s *Store) ExportRowsEstimate(ctx context.Context, only int64) (int64, error) {
	var n int64
	err := s.q.GetContext(ctx, &n, `WITH r AS MATERIALIZED (SELECT id, procs FROM runs WHERE ? = 0 OR coalesce(sweep_id, 0) = ?)
		SELECT (SELECT count(*) FROM r)
		     + 2 * (SELECT count(*) FROM intervals WHERE run_id IN (SELECT id FROM r))
		     + (SELECT count(*) FROM interval_values WHERE run_id IN (SELECT id FROM r))
		     + (SELECT coalesce(sum(r.procs), 0) FROM interval_proc_series p JOIN r ON r.id = p.run_id)`, only, only)
	return n, err
}

// RunRows calls fn for each run of one sweep, in id order. The row is
// reused: fn must copy what it keeps.
func (s *Store) RunRows(ctx context.Context, sweepID int64, fn func(*stored.RunRow) error) error {
	var r stored.RunRow
	dest := runRowFields(&r)
	return s.eachRow(ctx, func() error { return fn(&r) }, dest,
		`SELECT `+runRowColumns+` FROM v_runs WHERE sweep_id = ? ORDER BY run_id`, sweepID)
}

// IntervalRows calls fn for each interval of the runs of one sweep, run by
// run in tree (pre-)order. The row is reused: fn must copy what it keeps.
func (s *Store) IntervalRows(ctx context.Context, sweepID int64, fn func(*stored.IntervalRow) error) error {
	var iv stored.IntervalRow
	return s.eachRow(ctx, func() error { return fn(&iv) }, intervalRowFields(&iv),
		`SELECT `+intervalRowColumns+` FROM v_intervals WHERE sweep_id = ? ORDER BY run_id, ord`, sweepID)
}

// eachRow scans each row of query into dest and calls fn after each one.
// Errors name the row (1-based).
func (s *Store) eachRow(ctx context.Context, fn func() error, dest []any, query string, args ...any) error {
	rows, err := s.q.QueryContext(ctx, query, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for n := 1; rows.Next(); n++ {
		if err := rows.Scan(dest...); err != nil {
			return fmt.Errorf("row %d: %w", n, err)
		}
		if err := fn(); err != nil {
			return err
		}
	}
	return rows.Err()
}
