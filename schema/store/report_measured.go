package store

import (
	"context"
	"fmt"

	"github.com/presage-dvm/presage/schema/stored"
)

// StsDetails returns the statistics file stsID's details of its measured
// run runID. The error of a file not stored wraps ErrNotFound.
func (s *Store) StsDetails(ctx context.Context, runID, stsID int64) (*stored.StsDetails, error) {
	d, found, err := getOptional[stored.StsDetails](ctx, s.db, `SELECT version, platform, grid_sizes FROM sts_files WHERE id = ?`, stsID)
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
