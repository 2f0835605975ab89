package store_test

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/jmoiron/sqlx"

	"github.com/presage-dvm/presage/schema"
	"github.com/presage-dvm/presage/schema/store"
)

// foreignDB makes at path a SQLite database of another program, in the
// rollback journal mode such programs use by default.
func foreignDB(t *testing.T, path string, statements ...string) {
	t.Helper()
	db, err := sqlx.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, s := range statements {
		if _, err := db.Exec(s); err != nil {
			t.Fatal(err)
		}
	}
}

// TestOpenRefusesWhatIsNotAStore: Open and OpenReadOnly refuse what is
// not a Presage store with a NotStoreError naming it, and write nothing:
// the file's bytes are unchanged and no log is left beside it.
func TestOpenRefusesWhatIsNotAStore(t *testing.T) {
	for _, c := range []struct {
		name string
		make func(t *testing.T, path string)
		want string
	}{
		{"directory", func(t *testing.T, path string) { os.Mkdir(path, 0o755) }, "is a directory, expected a store file"},
		{"empty file", func(t *testing.T, path string) { os.WriteFile(path, nil, 0o644) }, "is an empty file, not a Presage store"},
		{"text file", func(t *testing.T, path string) { os.WriteFile(path, []byte("run,time\n1,2\n"), 0o644) }, `is not a SQLite database (it begins "run,time\n1,2\n")`},
		{"foreign database", func(t *testing.T, path string) {
			foreignDB(t, path, `CREATE TABLE accounts(id INTEGER PRIMARY KEY, name TEXT)`, `INSERT INTO accounts(name) VALUES ('mine')`)
		}, "is a SQLite database with the tables accounts and no Presage schema_version: not a Presage store"},
		{"foreign schema_version", func(t *testing.T, path string) {
			foreignDB(t, path, `CREATE TABLE schema_version(version INTEGER, name TEXT)`, `INSERT INTO schema_version VALUES (1, 'create_users')`)
		}, "is a SQLite database with the tables schema_version and no Presage schema_version"},
		{"other application", func(t *testing.T, path string) {
			foreignDB(t, path, `PRAGMA application_id = 1234`, `CREATE TABLE t(x)`)
		}, "is a SQLite database of another program (application_id 0x000004d2): not a Presage store"},
		{"empty database", func(t *testing.T, path string) { foreignDB(t, path, `PRAGMA user_version = 7`) }, "is an empty SQLite database (no table), not a Presage store"},
	} {
		for _, readOnly := range []bool{false, true} {
			dir := t.TempDir()
			path := filepath.Join(dir, "x.db")
			c.make(t, path)
			before, _ := os.ReadFile(path)
			var err error
			if readOnly {
				_, err = store.OpenReadOnly(path)
			} else {
				_, err = store.Open(path)
			}
			var notStore *store.NotStoreError
			if !errors.As(err, &notStore) || !errors.Is(err, schema.ErrNotStore) || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
				t.Errorf("%s (read-only %v): %v, want a NotStoreError with %q", c.name, readOnly, err, c.want)
			}
			if after, _ := os.ReadFile(path); !bytes.Equal(before, after) {
				t.Errorf("%s (read-only %v): refusing it changed the file", c.name, readOnly)
			}
			if entries, _ := os.ReadDir(dir); len(entries) != 1 {
				t.Errorf("%s (read-only %v): refusing it left %d files in its folder, want it alone", c.name, readOnly, len(entries))
			}
		}
	}
}

// TestNewStoreAppearsComplete: Open makes a new store whole beside its
// name and links it into place, leaving no temporary file; the store
// carries Presage's application id.
func TestNewStoreAppearsComplete(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "new.db")
	st, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if v, err := st.SchemaVersion(); err != nil || v != schema.Version {
		t.Errorf("new store: version %d (%v), want %d", v, err, schema.Version)
	}
	st.Close()
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("making a store left %d files, want the store alone: %v", len(entries), entries)
	}
	if id := applicationID(t, path); id != schema.ApplicationID {
		t.Errorf("new store: application_id %#x, want %#x", id, schema.ApplicationID)
	}
}

// TestOlderStoreGetsTheApplicationID: a store made before the
// application id was set is still recognised by its schema_version, and
// gets the id when a writer opens it.
func TestOlderStoreGetsTheApplicationID(t *testing.T) {
	path := filepath.Join(t.TempDir(), "old.db")
	st, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	st.Close()
	foreignDB(t, path, `PRAGMA application_id = 0`)
	if ro, err := store.OpenReadOnly(path); err != nil {
		t.Fatalf("a store without the application id, read-only: %v", err)
	} else {
		ro.Close()
	}
	if id := applicationID(t, path); id != 0 {
		t.Fatalf("reading set the application id to %#x", id)
	}
	if st, err = store.Open(path); err != nil {
		t.Fatalf("a store without the application id: %v", err)
	}
	st.Close()
	if id := applicationID(t, path); id != schema.ApplicationID {
		t.Errorf("after a writer opened it: application_id %#x, want %#x", id, schema.ApplicationID)
	}
}

// applicationID reads the store's application id from its header.
func applicationID(t *testing.T, path string) int64 {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil || len(b) < 72 {
		t.Fatalf("header of %s: %d bytes (%v)", path, len(b), err)
	}
	return int64(b[68])<<24 | int64(b[69])<<16 | int64(b[70])<<8 | int64(b[71])
}

// TestStaleNewStoresRemoved: the temporary store a process killed while
// making a store left (.NAME.new-PID-N, with its log) is removed when a
// store is next made in that folder; one whose maker still runs stays.
func TestStaleNewStoresRemoved(t *testing.T) {
	dir := t.TempDir()
	gone := exec.Command("true")
	if err := gone.Run(); err != nil {
		t.Fatal(err)
	}
	dead := fmt.Sprintf(".new.db.new-%d-1", gone.Process.Pid)
	alive := ".new.db.new-1-2" // init's
	for _, name := range []string{dead, dead + "-wal", alive} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("half made"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	st, err := store.Open(filepath.Join(dir, "new.db"))
	if err != nil {
		t.Fatal(err)
	}
	st.Close()
	var names []string
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if want := []string{alive, "new.db"}; !slices.Equal(names, want) {
		t.Errorf("after making new.db the folder holds %v, want %v", names, want)
	}
}
