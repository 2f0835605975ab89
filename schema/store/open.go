package store

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/jmoiron/sqlx"
	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"

	"github.com/presage-dvm/presage/schema"
)

// busyTimeout is how long (ms) a writer waits for another one.
const busyTimeout = 10000

// NotStoreError says that the file at Path is not a Presage store; nothing
// was written to it. Its message is the path and what the file is, so
// that the command line can put its flag before it ("--db x.db is a
// directory, expected a store file").
type NotStoreError struct {
	Path   string
	Reason string // what the file is, after "is"
}

func (e *NotStoreError) Error() string { return e.Path + " is " + e.Reason }

// Unwrap makes the error schema.ErrNotStore for errors.Is.
func (e *NotStoreError) Unwrap() error { return schema.ErrNotStore }

// sqliteMagic begins every SQLite database file.
var sqliteMagic = []byte("SQLite format 3\x00")

// Open opens the store at path for writing and brings its schema up to
// date, in one transaction. Where no file is, it creates a new store
// (createStore); a file that is there must be a Presage store: a
// directory, an empty file, a file of another kind or another program's
// SQLite database is refused with a NotStoreError before anything is
// written to it. Foreign keys are enforced; writers wait for each other.
func Open(path string) (*Store, error) {
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		if err := createStore(path); err != nil {
			return nil, err
		}
	}
	if err := checkFile(path); err != nil {
		return nil, err
	}
	return openWriter(path, false)
}

// openWriter opens path for writing and migrates it; newFile says that
// the file is one Open has just made, which may hold no table yet.
func openWriter(path string, newFile bool) (*Store, error) {
	// Transactions take the write lock when they begin (_txlock=immediate):
	// one that reads before it writes, such as a sweep checking that its
	// position is free, then cannot be overtaken by another process. The
	// journal mode is set after the file is known to be a store: setting
	// it writes to the file.
	dsn := fmt.Sprintf("%s?_txlock=immediate&_pragma=foreign_keys(1)&_pragma=busy_timeout(%d)",
		fileURI(path), busyTimeout)
	if newFile {
		dsn += newFilePragmas
	} else {
		dsn += "&_pragma=synchronous(NORMAL)"
	}
	db, err := sqlx.Open("sqlite", dsn)
	if err != nil {
		return nil, fmt.Errorf("open store %s: %w", path, err)
	}
	if err := migrateWaiting(db, path, newFile); err != nil {
		db.Close()
		var notStore *NotStoreError
		switch {
		case errors.As(err, &notStore):
			return nil, err
		case cannotWrite(err):
			return nil, fmt.Errorf("store %s: %w: it cannot be written (a read-only file or folder, or a full disk); list, report, export, compare and query only read it and still work", path, err)
		}
		return nil, fmt.Errorf("store %s: %w", path, err)
	}
	return &Store{db: db, q: db, path: path}, nil
}

// newFilePragmas are the settings of the new file createStore makes,
// which no other process opens before it is linked into place complete
// and synced: the schema is written straight into the file (the
// rollback journal in memory, for a failed migration's ROLLBACK; no sync
// at each commit). Its pages keep SQLite's default size: 16 and 64 KB
// pages made the trace's pack no cheaper to write or read, and every
// stored run dearer to write (docs/performance.md). Every connection of
// the pool would set them again as it opens: createStore closes the store
// as soon as it is migrated and switched to write-ahead logging.
const newFilePragmas = "&_pragma=journal_mode(MEMORY)&_pragma=synchronous(OFF)"

// migrateWaiting checks that db is a store (or the new file Open made),
// switches it to write-ahead logging and migrates it, waiting up to
// busyTimeout for other processes opening the same store: SQLite does not
// call its busy handler while a connection switches the file to
// write-ahead logging, so that step can fail at once with SQLITE_BUSY.
// The new file is switched after it is migrated, its schema written
// without a log (newFilePragmas).
func migrateWaiting(db *sqlx.DB, path string, newFile bool) error {
	deadline := time.Now().Add(busyTimeout * time.Millisecond)
	for wait := 5 * time.Millisecond; ; wait = min(2*wait, 200*time.Millisecond) {
		err := identify(db, path, newFile)
		if err == nil && !newFile {
			_, err = db.Exec(`PRAGMA journal_mode = WAL`)
		}
		if err == nil {
			err = schema.Migrate(db, steps...)
		}
		if err == nil && newFile {
			_, err = db.Exec(`PRAGMA journal_mode = WAL`)
		}
		var e *sqlite.Error
		if err == nil || !errors.As(err, &e) || e.Code()&0xff != sqlite3.SQLITE_BUSY || time.Now().After(deadline) {
			return err
		}
		time.Sleep(wait)
	}
}

// identify refuses, as a NotStoreError, a database that is not a Presage
// store; a database without any table is refused too unless it is the
// new file Open made (an empty SQLite database of the user's is not a
// store to fill).
func identify(db sqlx.QueryerContext, path string, newFile bool) error {
	empty, err := schema.Identify(context.Background(), db)
	switch {
	case errors.Is(err, schema.ErrNotStore):
		return &NotStoreError{Path: path, Reason: err.Error()}
	case err != nil:
		return err
	case empty && !newFile:
		return &NotStoreError{Path: path, Reason: "an empty SQLite database (no table), not a Presage store"}
	}
	return nil
}

// checkFile refuses, before SQLite opens it, what at path cannot be a
// store: a directory, a FIFO or a device, an empty file (Open never
// leaves one: createStore links a store into place complete), or a file
// that does not begin as a SQLite database does.
func checkFile(path string) error {
	fi, err := os.Stat(path)
	switch {
	case err != nil:
		return fmt.Errorf("open store %s: %w", path, err)
	case fi.IsDir():
		return &NotStoreError{Path: path, Reason: "a directory, expected a store file"}
	case !fi.Mode().IsRegular():
		return &NotStoreError{Path: path, Reason: fmt.Sprintf("not a regular file (%s), expected a store file", fi.Mode().Type())}
	case fi.Size() == 0:
		// A store whose log was never copied into it is empty but for
		// its -wal, which SQLite reads.
		if wal, err := os.Stat(path + "-wal"); err == nil && wal.Size() > 0 {
			return nil
		}
		return &NotStoreError{Path: path, Reason: "an empty file, not a Presage store (presage makes a new store only where no file is)"}
	}
	f, err := os.Open(path)
	if err != nil {
		return nil // SQLite says why it cannot be read
	}
	defer f.Close()
	head := make([]byte, len(sqliteMagic))
	n, _ := io.ReadFull(f, head)
	if !bytes.Equal(head[:n], sqliteMagic) {
		return &NotStoreError{Path: path, Reason: fmt.Sprintf("not a SQLite database (it begins %q), not a Presage store", head[:n])}
	}
	return nil
}

// createStore makes a new store at path. It is made and migrated in a
// temporary file of the same folder, then linked to path only complete:
// no process ever finds a half-made store at path, and an empty file at
// path was not made by Presage. When another process creates the store
// first, its store stays and is the one opened. Temporary files of
// creations killed earlier (.NAME.new-PID-N) are removed.
func createStore(path string) error {
	dir, base := filepath.Dir(path), filepath.Base(path)
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		return fmt.Errorf("create store %s: no folder %s to make it in", path, dir)
	}
	prefix := "." + base + ".new-"
	removeStale(dir, prefix)
	f, err := os.CreateTemp(dir, fmt.Sprintf("%s%d-*", prefix, os.Getpid()))
	if errors.Is(err, fs.ErrPermission) {
		return fmt.Errorf("create store %s: the folder %s cannot be written", path, dir)
	}
	if err != nil {
		return fmt.Errorf("create store %s: %w", path, err)
	}
	tmp := f.Name()
	f.Close()
	defer removeWithLog(tmp)
	st, err := openWriter(tmp, true)
	if err != nil {
		return fmt.Errorf("create store %s: %w", path, err)
	}
	if err := st.Close(); err != nil { // the last connection: the log is copied in
		return fmt.Errorf("create store %s: %w", path, err)
	}
	if err := syncFile(tmp); err != nil { // its commits did not (newFilePragmas)
		return fmt.Errorf("create store %s: %w", path, err)
	}
	if err := os.Link(tmp, path); err != nil && !errors.Is(err, fs.ErrExist) {
		// A file system without hard links: rename, unless another
		// process made the store meanwhile.
		if _, serr := os.Stat(path); !errors.Is(serr, fs.ErrNotExist) {
			return nil
		}
		if err := os.Rename(tmp, path); err != nil {
			return fmt.Errorf("create store %s: %w", path, err)
		}
	}
	return nil
}

// syncFile writes the file at path through to the disk.
func syncFile(path string) error {
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// removeWithLog removes a database file with its log and the log's index.
func removeWithLog(path string) {
	for _, suffix := range []string{"", "-wal", "-shm", "-journal"} {
		os.Remove(path + suffix)
	}
}

// staleAfter is the age past which a temporary store of createStore is
// one a killed process left, whatever its process id says (the id may be
// another host's, or used again): making a store takes milliseconds.
const staleAfter = 10 * time.Minute

// removeStale removes the temporary stores of dir (names beginning with
// prefix, then the process id of their maker) that a killed process
// left: their maker is no longer running, or they are older than
// staleAfter.
func removeStale(dir, prefix string) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		rest, ok := strings.CutPrefix(e.Name(), prefix)
		if !ok {
			continue
		}
		pid, _, _ := strings.Cut(rest, "-")
		info, err := e.Info()
		if err == nil && (!running(pid) || time.Since(info.ModTime()) > staleAfter) {
			os.Remove(filepath.Join(dir, e.Name()))
		}
	}
}

// running reports whether the process of id pid (decimal text) is
// running on this host; a text that is no process id counts as running,
// so that only age removes its file.
func running(pid string) bool {
	n, err := strconv.Atoi(pid)
	if err != nil || n <= 0 {
		return true
	}
	return n == os.Getpid() || !errors.Is(syscall.Kill(n, 0), syscall.ESRCH)
}

// OpenReadOnly opens an existing store for reading only: the connection
// refuses every write, nothing is written to open it, and it reads what
// the write-ahead log holds, so a reader sees every committed run even
// while a sweep writes. A file that is not a Presage store is refused as
// Open refuses it. The way it is opened leaves nothing behind:
//   - a store file the user may write is opened for writing, with writes
//     refused all the same: as the last connection to close, it removes
//     the write-ahead log and its index that reading made, which a
//     read-only connection may not;
//   - a store file the user may not write (0444, or a read-only folder)
//     is opened read-only when a write-ahead log is there (a writer's,
//     who removes it), and otherwise as immutable: then the file holds
//     every committed transaction (SQLite keeps a log while any
//     connection has the store open), and no writer can start, since
//     none may write the file or make a log beside it.
func OpenReadOnly(path string) (*Store, error) {
	if err := checkFile(path); err != nil {
		return nil, err
	}
	st, err := openReaderAs(path)
	if err != nil {
		return nil, err
	}
	if err := identify(st.db, path, false); err != nil {
		st.Close()
		return nil, err
	}
	return st, nil
}

// openReaderAs opens path for reading in the mode OpenReadOnly says.
func openReaderAs(path string) (*Store, error) {
	if writable(path) {
		if st, err := openReader(path, "rw"); err == nil {
			return st, nil
		}
		// A store file in a folder where the log's index cannot be made.
	}
	if _, err := os.Stat(path + "-wal"); err == nil {
		return openReader(path, "ro")
	}
	return openReader(path, "ro&immutable=1")
}

// writable reports whether the user may open the file at path for
// writing (opening it writes nothing).
func writable(path string) bool {
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		return false
	}
	f.Close()
	return true
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
	return &Store{db: db, q: db, path: path}, nil
}
