// Merging combines Presage stores, such as the shards of a sweep run on
// different hosts, into one: inputs (traces, machine files, sts files) are
// kept once per content hash, sweeps once per definition hash, and runs
// with all their rows are renumbered. Everything is written in one
// transaction.

package store

import (
	"context"
	"fmt"

	"github.com/jmoiron/sqlx"

	"github.com/presage-dvm/presage/schema"
)

// MergeSummary counts what a merge added to the destination.
type MergeSummary struct {
	Stores   int // sources merged
	Inputs   int // traces, machines and sts files added
	Sweeps   int // sweeps added
	Runs     int // runs added
	Dups     int // runs left out: their sweep position was stored already
	Rows     int64
	Existing int // inputs and sweeps found in the destination already
}

// Merge merges the stores at srcs into s, all in one transaction: either
// every source is merged or nothing is written. Stores of a schema version
// other than s's are refused, as are sweeps of one definition over
// different traces.
func (s *Store) Merge(ctx context.Context, srcs []string) (MergeSummary, error) {
	dst := s.db
	var sum MergeSummary
	want, err := schema.CurrentVersion(dst)
	if err != nil {
		return sum, fmt.Errorf("merge: destination: %w", err)
	}
	if err := checkTables(dst); err != nil {
		return sum, err
	}
	var dbs []*sqlx.DB
	defer func() {
		for _, db := range dbs {
			db.Close()
		}
	}()
	for _, path := range srcs {
		src, err := OpenReadOnly(path)
		if err != nil {
			return sum, err
		}
		db := src.db
		dbs = append(dbs, db)
		v, err := schema.CurrentVersion(db)
		if err != nil {
			return sum, fmt.Errorf("merge: %s: %w", path, err)
		}
		if v != want {
			return sum, fmt.Errorf("merge: %s has schema version %d, the destination %d: open it with this build first (it migrates) or merge with the build that wrote it", path, v, want)
		}
	}
	tx, err := dst.BeginTxx(ctx, nil)
	if err != nil {
		return sum, err
	}
	defer tx.Rollback() // no-op after Commit
	for i, db := range dbs {
		m := &merger{ctx: ctx, src: db, tx: tx, path: srcs[i], sum: &sum, ids: map[string]map[int64]int64{}, fresh: map[string]map[int64]bool{}}
		if err := m.run(); err != nil {
			return sum, fmt.Errorf("merge %s: %w", srcs[i], err)
		}
		sum.Stores++
	}
	return sum, tx.Commit()
}

// checkTables refuses a destination with mergeTables merge does not know, so
// that a mergeTable added by a later migration cannot be silently left out.
func checkTables(db *sqlx.DB) error {
	var names []string
	if err := db.Select(&names, `SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'`); err != nil {
		return err
	}
	known := map[string]bool{"schema_version": true, "characteristics": true}
	for _, t := range mergeTables {
		known[t.name] = true
	}
	for _, n := range names {
		if !known[n] {
			return fmt.Errorf("merge: the store has a mergeTable %q that merge does not know how to copy", n)
		}
	}
	return nil
}
