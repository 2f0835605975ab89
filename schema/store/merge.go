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
	"slices"
	"strings"

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
	dstCols, err := mergeColumns(dst)
	if err != nil {
		return sum, err
	}
	for name, cols := range dstCols {
		if len(cols) == 0 {
			return sum, fmt.Errorf("merge: the destination %s lacks the table %s of schema version %d: not a complete Presage store", s.path, name, want)
		}
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
			return sum, fmt.Errorf("merge: %w", err)
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
		if err := sameTables(db, path, dstCols, v); err != nil {
			return sum, err
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

// mergeColumns lists the columns of every table merge copies, in order,
// as db has them (none for a table db lacks).
func mergeColumns(db *sqlx.DB) (map[string][]string, error) {
	cols := make(map[string][]string, len(mergeTables))
	for _, t := range mergeTables {
		var names []string
		if err := db.Select(&names, `SELECT name FROM pragma_table_info(?) ORDER BY cid`, t.name); err != nil {
			return nil, fmt.Errorf("merge: columns of %s: %w", t.name, err)
		}
		cols[t.name] = names
	}
	return cols, nil
}

// sameTables refuses a source store (at path, of schema version) whose
// tables merge copies are missing or differ from the destination's: a
// store of the right version that someone altered, which the copy's
// statements would otherwise fail on with an SQL error.
func sameTables(src *sqlx.DB, path string, want map[string][]string, version int) error {
	have, err := mergeColumns(src)
	if err != nil {
		return fmt.Errorf("merge: %s: %w", path, err)
	}
	for _, t := range mergeTables {
		switch got := have[t.name]; {
		case len(got) == 0:
			return fmt.Errorf("merge: %s lacks the table %s of schema version %d: not a complete Presage store", path, t.name, version)
		case !slices.Equal(got, want[t.name]):
			return fmt.Errorf("merge: %s: table %s has the columns (%s), expected (%s) of schema version %d", path, t.name,
				strings.Join(got, ", "), strings.Join(want[t.name], ", "), version)
		}
	}
	return nil
}
