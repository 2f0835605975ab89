// Package store owns Presage's SQLite store: it alone holds SQL text
// (besides the migrations of package schema and the named queries of
// package queries). Every stage talks to a *Store through typed methods —
// traces, machines, predicted runs, sweeps, measured runs, exports, merging
// — and gets model values back (sim/result, sim/trace, sim/machine), never
// a database handle.
//
// Writes of a stage happen in one transaction, so an interrupted or failed
// stage leaves the store as it was.
package store

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/jmoiron/sqlx"

	"github.com/presage-dvm/presage/schema"
)

// Store is an open store. It is safe for concurrent use; SQLite serialises
// the writers (each waits up to busyTimeout for the others).
type Store struct {
	db *sqlx.DB
	// q is what the export streams read through: db, or the read
	// transaction of a Snapshot.
	q    querier
	path string
	// snap is the read transaction of a Snapshot, which Close ends.
	snap *sqlx.Tx
}

// querier is what the export streams read through: the store's database
// or one read transaction (Snapshot).
type querier interface {
	sqlx.Queryer
	sqlx.QueryerContext
	GetContext(ctx context.Context, dest any, query string, args ...any) error
	SelectContext(ctx context.Context, dest any, query string, args ...any) error
}

// CheckCurrent refuses a store whose schema version is not this build's:
// a store opened read-only is not migrated.
func (s *Store) CheckCurrent() error {
	v, err := s.SchemaVersion()
	switch {
	case err != nil:
		return fmt.Errorf("store %s: %w", s.path, err)
	case v < schema.Version:
		return fmt.Errorf("store %s has schema version %d, this build %d: open it once with a command that writes (e.g. presage --db %s ingest ...) to migrate it", s.path, v, schema.Version, s.path)
	case v > schema.Version:
		return fmt.Errorf("store %s has schema version %d, newer than this build's %d: use the build that wrote it", s.path, v, schema.Version)
	}
	return nil
}

// cannotWrite reports whether err is SQLite refusing to write the file.
func cannotWrite(err error) bool {
	msg := err.Error()
	return strings.Contains(msg, "readonly database") || strings.Contains(msg, "disk is full") ||
		strings.Contains(msg, "unable to open database file")
}

// fileURI is the SQLite URI of the file at path: the characters that
// would end the path or start an escape ('?', '#', '%') are escaped, so
// that "run#1.db" is that file and not "run".
func fileURI(path string) string {
	return "file:" + strings.NewReplacer("%", "%25", "?", "%3f", "#", "%23").Replace(path)
}

// Close closes the store; for a Snapshot, it ends its read transaction.
func (s *Store) Close() error {
	if s.snap != nil {
		return s.snap.Rollback()
	}
	return s.db.Close()
}

// Path is the file the store was opened from.
func (s *Store) Path() string { return s.path }

// Empty reports whether the store holds no input and no run.
func (s *Store) Empty() (bool, error) {
	var n int
	err := s.db.Get(&n, `SELECT (SELECT count(*) FROM traces) + (SELECT count(*) FROM machines) + (SELECT count(*) FROM sts_files)
		+ (SELECT count(*) FROM order_traces) + (SELECT count(*) FROM calibrations) + (SELECT count(*) FROM order_measurements)
		+ (SELECT count(*) FROM runs)`)
	return n == 0, err
}

// SchemaVersion is the schema version recorded in the store.
func (s *Store) SchemaVersion() (int, error) { return schema.CurrentVersion(s.db) }

// update runs f in one transaction, committed when f returns nil.
func (s *Store) update(ctx context.Context, f func(tx *sqlx.Tx) error) error {
	tx, err := begin(ctx, s.db)
	if err != nil {
		return err
	}
	defer tx.Rollback() // no-op after Commit
	if err := f(tx); err != nil {
		return err
	}
	return tx.Commit()
}

// begin starts a transaction that only its owner ends. database/sql rolls
// back a transaction whose context is cancelled in a goroutine of its
// own, which a process stopping by a signal does not wait for: its
// connection stays open and the -wal and -shm files stay behind. The
// statements of the transaction still take ctx, so that they stop at a
// cancel, and the owner's deferred Rollback then ends it before the store
// is closed.
func begin(ctx context.Context, db *sqlx.DB) (*sqlx.Tx, error) {
	return db.BeginTxx(context.WithoutCancel(ctx), nil)
}

// ErrNotFound is wrapped by the errors of look-ups of things the store
// does not hold.
var ErrNotFound = errors.New("not found in the store")

func nullID(id int64) any {
	if id == 0 {
		return nil
	}
	return id
}

func nullString(s string) any {
	if s == "" {
		return nil
	}
	return s
}

func nullZero(v float64) any {
	if v == 0 {
		return nil
	}
	return v
}

// CountRows returns the number of rows of one of the store's tables or
// views (interval_proc_values is a view since schema 8).
func (s *Store) CountRows(table string) (int, error) {
	var known int
	if err := s.db.Get(&known, `SELECT count(*) FROM sqlite_master WHERE type IN ('table', 'view') AND name = ?`, table); err != nil {
		return 0, err
	}
	if known == 0 {
		return 0, fmt.Errorf("count rows: %q is not a table of the store", table)
	}
	var n int
	err := s.db.Get(&n, `SELECT count(*) FROM "`+table+`"`)
	return n, err
}

// Checkpoint copies the write-ahead log into the database file and
// truncates it, so that the file alone holds everything (its size is then
// the store's size, and a copy of it is complete).
func (s *Store) Checkpoint(ctx context.Context) error {
	_, err := s.db.ExecContext(ctx, `PRAGMA wal_checkpoint(TRUNCATE)`)
	return err
}

// Integrity runs SQLite's integrity check and the foreign key check on
// the store and returns an error naming the first problems found, nil
// when the store is sound.
func (s *Store) Integrity(ctx context.Context) error {
	var problems []string
	if err := s.db.SelectContext(ctx, &problems, `PRAGMA integrity_check(10)`); err != nil {
		return fmt.Errorf("integrity check of store %s: %w", s.path, err)
	}
	if len(problems) == 1 && problems[0] == "ok" {
		problems = nil
	}
	var broken int
	if err := s.db.GetContext(ctx, &broken, `SELECT count(*) FROM pragma_foreign_key_check`); err != nil {
		return fmt.Errorf("foreign key check of store %s: %w", s.path, err)
	}
	if broken > 0 {
		problems = append(problems, fmt.Sprintf("%d rows break foreign keys", broken))
	}
	if len(problems) > 0 {
		return fmt.Errorf("store %s is damaged: %s", s.path, strings.Join(problems, "; "))
	}
	return nil
}
