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
	"os"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"
	"modernc.org/sqlite" // also registers the "sqlite" driver
	sqlite3 "modernc.org/sqlite/lib"

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
	if err := migrateWaiting(db); err != nil {
		db.Close()
		if cannotWrite(err) {
			return nil, fmt.Errorf("store %s: %w: it cannot be written (a read-only file or folder, or a full disk); list, report, export, compare and query only read it and still work", path, err)
		}
		return nil, fmt.Errorf("store %s: %w", path, err)
	}
	return &Store{db: db, path: path}, nil
}

// migrateWaiting applies the migrations, waiting up to busyTimeout for
// other processes opening the same new store: SQLite does not call its
// busy handler while a connection switches the file to write-ahead
// logging, so that step can fail at once with SQLITE_BUSY.
func migrateWaiting(db *sqlx.DB) error {
	deadline := time.Now().Add(busyTimeout * time.Millisecond)
	for wait := 5 * time.Millisecond; ; wait = min(2*wait, 200*time.Millisecond) {
		err := schema.Migrate(db)
		var e *sqlite.Error
		if err == nil || !errors.As(err, &e) || e.Code()&0xff != sqlite3.SQLITE_BUSY || time.Now().After(deadline) {
			return err
		}
		time.Sleep(wait)
	}
}

// OpenReadOnly opens an existing store for reading only: the connection
// refuses every write, and nothing is written to open it, so a store the
// user may not write (a 0444 file, a read-only folder, a full disk) can
// still be read. A store the user may write is opened for writing, with
// writes refused all the same: as the last connection to close, it then
// removes the write-ahead log and its index that reading made, which a
// read-only connection may not. In a folder where SQLite cannot create
// the log's index, the store is read as immutable: no writer can be at
// work there either.
func OpenReadOnly(path string) (*Store, error) {
	if _, err := os.Stat(path); err != nil {
		return nil, fmt.Errorf("open store %s: %w", path, err)
	}
	st, err := openReader(path, "rw")
	if err != nil {
		st, err = openReader(path, "ro")
	}
	if err != nil {
		st, err = openReader(path, "ro&immutable=1")
	}
	return st, err
}

// openReader opens path in mode (with more URI parameters after it),
// refusing writes, and checks that it can be read.
func openReader(path, mode string) (*Store, error) {
	dsn := fmt.Sprintf("%s?mode=%s&_pragma=query_only(1)&_pragma=busy_timeout(%d)", fileURI(path), mode, busyTimeout)
	db, err := sqlx.Open("sqlite", dsn)
	if err != nil {
		return nil, fmt.Errorf("open store %s: %w", path, err)
	}
	var n int
	if err := db.Get(&n, `SELECT count(*) FROM sqlite_master`); err != nil {
		db.Close()
		return nil, fmt.Errorf("open store %s: %w", path, err)
	}
	return &Store{db: db, path: path}, nil
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

// Close closes the store.
func (s *Store) Close() error { return s.db.Close() }

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
