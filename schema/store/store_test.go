package store_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/presage-dvm/presage/schema"
	"github.com/presage-dvm/presage/schema/store"
)

// readOnly makes a new store and opens it read-only.
func readOnly(t *testing.T) (*store.Store, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "s.db")
	st, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	st.Close()
	ro, err := store.OpenReadOnly(path)
	if err != nil {
		t.Fatal(err)
	}
	return ro, path
}

func TestReadOnlyRefusesWrites(t *testing.T) {
	ro, _ := readOnly(t)
	defer ro.Close()
	if err := ro.Exec(`DELETE FROM characteristics`); err == nil {
		t.Fatal("a read-only store accepted a DELETE")
	}
	if n, err := ro.CountRows("characteristics"); err != nil || n == 0 {
		t.Errorf("read-only store: %d characteristics (%v)", n, err)
	}
}

// TestReadingLeavesNoLog: reading a store the user may write leaves
// neither a write-ahead log nor its index behind.
func TestReadingLeavesNoLog(t *testing.T) {
	ro, path := readOnly(t)
	if n, err := ro.CountRows("characteristics"); err != nil || n == 0 {
		t.Fatalf("read-only store: %d characteristics (%v)", n, err)
	}
	ro.Close()
	for _, suffix := range []string{"-wal", "-shm"} {
		if _, err := os.Stat(path + suffix); err == nil {
			t.Errorf("reading left %s%s", filepath.Base(path), suffix)
		}
	}
}

// TestPathsWithURICharacters: names with '#', '?' and '%' name their own
// files.
func TestPathsWithURICharacters(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"run#1.db", "run#2.db", "p%41q.db", "what?.db"} {
		st, err := store.Open(filepath.Join(dir, name))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		st.Close()
		if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
			t.Errorf("opening %s did not create it: %v", name, err)
		}
	}
	entries, _ := os.ReadDir(dir)
	var dbs int
	for _, e := range entries {
		if filepath.Ext(e.Name()) == ".db" {
			dbs++
		}
	}
	if dbs != 4 {
		t.Errorf("%d store files for 4 names: %v", dbs, entries)
	}
}

// TestConcurrentOpenMigratesOnce: processes that open a new store at the
// same moment all succeed; the migrations are applied once.
func TestConcurrentOpenMigratesOnce(t *testing.T) {
	path := filepath.Join(t.TempDir(), "new.db")
	errs := make(chan error, 4)
	for range 4 {
		go func() {
			st, err := store.Open(path)
			if err == nil {
				err = st.Close()
			}
			errs <- err
		}()
	}
	for range 4 {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	st, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if n, err := st.CountRows("schema_version"); err != nil || n != schema.Version {
		t.Errorf("%d migrations recorded (%v), want %d", n, err, schema.Version)
	}
}
