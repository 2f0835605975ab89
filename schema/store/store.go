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
	_ "modernc.org/sqlite" // registers the "sqlite" driver

	"github.com/presage-dvm/presage/schema"
)

// Store is an open store. It is safe for concurrent use; SQLite serialises
// the writers (each waits up to busyTimeout for the others).
type Store struct {
	db   *sqlx.DB
	path string
}

// busyTimeout is how long (ms) a writer waits for another one.
const busyTimeout = 10000

// Open opens (creating if needed) the store at path and brings its schema
// up to date. Foreign keys are enforced; writers wait for each other.
func Open(path string) (*Store, error) {
	// Transactions take the write lock when they begin (_txlock=immediate):
	// one that reads before it writes, such as a sweep checking that its
	// position is free, then cannot be overtaken by another process.
	dsn := fmt.Sprintf("%s?_txlock=immediate&_pragma=foreign_keys(1)&_pragma=busy_timeout(%d)&_pragma=journal_mode(WAL)&_pragma=synchronous(NORMAL)",
		fileURI(path), busyTimeout)
	db, err := sqlx.Open("sqlite", dsn)
	if err != nil {
		return nil, fmt.Errorf("open store %s: %w", path, err)
	}
	if err := schema.Migrate(db); err != nil {
		db.Close()
		return nil, fmt.Errorf("store %s: %w", path, err)
	}
	return &Store{db: db, path: path}, nil
}

// OpenReadOnly opens an existing store for reading only: the connection
// refuses every write.
func OpenReadOnly(path string) (*Store, error) {
	dsn := fmt.Sprintf("%s?mode=ro&_pragma=query_only(1)&_pragma=busy_timeout(%d)", fileURI(path), busyTimeout)
	db, err := sqlx.Open("sqlite", dsn)
	if err != nil {
		return nil, fmt.Errorf("open store %s: %w", path, err)
	}
	if err := db.Ping(); err != nil {
		db.Close()
		return nil, fmt.Errorf("open store %s: %w", path, err)
	}
	return &Store{db: db, path: path}, nil
}

// fileURI is the SQLite URI of the file at path: the characters that
// would end the path or start an escape ('?', '#', '%') are escaped, so
// that "run#1.db" is that file and not "run".
func fileURI(path string) string {
	return "file:" + strings.NewReplacer("%", "%25", "?", "%3f", "#", "%23").Replace(path)
}

// Close closes the store.
func (s *Store) Close() error { return s.db.Close() }

// Path is the file the store was opened from.
func (s *Store) Path() string { return s.path }

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

// CountRows returns the number of rows of one of the store's tables.
func (s *Store) CountRows(table string) (int, error) {
	var known int
	if err := s.db.Get(&known, `SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = ?`, table); err != nil {
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
