package store

import (
	"context"
	"database/sql"
	"fmt"
)

// Snapshot returns the store as it is now, for an export: its export
// streams (ExportSweeps, ExportRowsEstimate, RunRows, IntervalRows,
// ValueRows, WideRows, IntervalValues) all read in one read transaction,
// so that runs a sweep stores meanwhile are in none of the export's files
// or in all of them, never in some. Its other methods read the store as
// it is when they are called. Close the snapshot (which ends the
// transaction) before the store.
//
// SQLite cannot copy the write-ahead log back into the store while the
// snapshot is open, so the log of a sweep writing meanwhile grows until
// the export ends.
func (s *Store) Snapshot(ctx context.Context) (*Store, error) {
	// A read-only transaction begins DEFERRED even on a store opened
	// for writing (whose transactions take the write lock): the snapshot
	// holds no lock a writer waits for. Like begin's, it is ended by its
	// owner only (Close).
	tx, err := s.db.BeginTxx(context.WithoutCancel(ctx), &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return nil, fmt.Errorf("snapshot of store %s: %w", s.path, err)
	}
	// The transaction reads from its first statement: this one fixes the
	// snapshot now.
	var n int
	if err := tx.GetContext(ctx, &n, `SELECT count(*) FROM sqlite_master`); err != nil {
		tx.Rollback()
		return nil, fmt.Errorf("snapshot of store %s: %w", s.path, err)
	}
	return &Store{db: s.db, q: tx, path: s.path, snap: tx}, nil
}
