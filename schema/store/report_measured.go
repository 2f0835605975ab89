package store

import (
	"context"
	"fmt"
)

// StsDetails is what the analyzer's report of a measured run shows besides
// the run itself: what its statistics file says about the run-time system,
// the processors and the intervals (schema/0002_sts.sql).
type StsDetails struct {
	Version  string `db:"version"` // DVM-system version that accumulated the statistics
	Platform string `db:"platform"`
	Grid     string `db:"grid_sizes"` // processor grid as the file states it
	Procs    []StsProc
	Warnings []string // the analyzer's "!!" warnings, in report order
	// Per interval ID: the run-time system's type code and last line.
	Intervals []StsInterval
	// The time-matrix row and column sums, rows of zeros left out.
	Sums []MatrixSum
}

// StsProc is one processor of a statistics file, in file order.
type StsProc struct {
	Name     string  `db:"name"`
	TestTime float64 `db:"test_time"` // performance-test time (s)
	Threads  int64   `db:"threads"`
}

// StsInterval is what the statistics file adds to an interval of the run.
type StsInterval struct {
	ID       int   `db:"interval_id"`
	TypeCode int   `db:"type_code"` // 20 main, 21 seq, 22 par, 23 user
	LineEnd  int64 `db:"line_end"`  // last source line
}

// MatrixSum is the row (Axis "i") or column ("j") sum of the time matrix
// of an interval on one processor (0-based) for one operation group.
type MatrixSum struct {
	Interval int     `db:"interval_id"`
	Proc     int     `db:"proc"`
	Axis     string  `db:"axis"`
	Group    int     `db:"grp"`
	Calls    float64 `db:"calls"`
	Product  float64 `db:"product"`
	Lost     float64 `db:"lost"`
}

// StsDetails returns the statistics file stsID's details of its measured
// run runID. The error of a file not stored wraps ErrNotFound.
func (s *Store) StsDetails(ctx context.Context, runID, stsID int64) (*StsDetails, error) {
	d, found, err := getOptional[StsDetails](ctx, s.db, `SELECT version, platform, grid_sizes FROM sts_files WHERE id = ?`, stsID)
	if err != nil {
		return nil, fmt.Errorf("run %d: sts file %d: %w", runID, stsID, err)
	}
	if !found {
		return nil, notFound(fmt.Sprintf("run %d: its sts file %d is not stored", runID, stsID))
	}
	for _, q := range []struct {
		dest  any
		query string
		arg   int64
	}{
		{&d.Procs, `SELECT name, test_time, threads FROM sts_procs WHERE sts_id = ? ORDER BY proc`, stsID},
		{&d.Warnings, `SELECT message FROM sts_warnings WHERE sts_id = ? ORDER BY seq`, stsID},
		{&d.Intervals, `SELECT interval_id, type_code, line_end FROM sts_intervals WHERE run_id = ?`, runID},
		{&d.Sums, `SELECT interval_id, proc, axis, grp, calls, product, lost FROM sts_matrix_sums WHERE run_id = ?`, runID},
	} {
		if err := s.db.SelectContext(ctx, q.dest, q.query, q.arg); err != nil {
			return nil, fmt.Errorf("run %d: sts file %d: %w", runID, stsID, err)
		}
	}
	return &d, nil
}
