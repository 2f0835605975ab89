// Merging combines Presage stores, such as the shards of a sweep run on
// different hosts, into one: inputs (traces, machine files, sts files) are
// kept once per content hash, sweeps once per definition hash, and runs
// with all their rows are renumbered. Everything is written in one
// transaction.

package store

import (
	"context"
	"fmt"
	"os"

	"github.com/jmoiron/sqlx"

	"github.com/presage-dvm/presage/schema"
)

// MergeSummary counts what a merge added to the destination.
type MergeSummary struct {
	Stores   int // sources merged
	Inputs   int // traces, machines and sts files added
	Sweeps   int // sweeps added
	Runs     int // runs added
	Dups     int // runs left out: stored already (the same sweep position, or the same content)
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
		if sameFile(s.path, path) {
			return sum, fmt.Errorf("merge: %s is the destination %s itself (the same file, through a link or another path)", path, s.path)
		}
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
		if v > want {
			return sum, fmt.Errorf("merge: %s has schema version %d, newer than this build's %d: merge it with the build that wrote it", path, v, want)
		}
		if v < want {
			return sum, fmt.Errorf("merge: %s has schema version %d, the destination %d: migrate it first by opening it once with this build (e.g. presage --db %s list runs)", path, v, want, path)
		}
	}
	tx, err := begin(ctx, dst)
	if err != nil {
		return sum, err
	}
	defer tx.Rollback() // no-op after Commit
	var keys runKeys    // loaded when the first run outside a sweep comes
	for i, db := range dbs {
		m := &merger{ctx: ctx, src: db, tx: tx, path: srcs[i], sum: &sum, ids: map[string]map[int64]int64{}, fresh: map[string]map[int64]bool{},
			keys: &keys}
		if err := m.run(); err != nil {
			return sum, fmt.Errorf("merge %s: %w", srcs[i], err)
		}
		sum.Stores++
	}
	return sum, tx.Commit()
}

// sameFile reports whether paths a and b name one file: the same path,
// a symbolic or a hard link.
func sameFile(a, b string) bool {
	sa, err := os.Stat(a)
	if err != nil {
		return false
	}
	sb, err := os.Stat(b)
	return err == nil && os.SameFile(sa, sb)
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
