package store_test

import (
	"path/filepath"
	"testing"

	"github.com/presage-dvm/presage/schema/store"
)

func TestReadOnlyRefusesWrites(t *testing.T) {
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
	defer ro.Close()
	if err := ro.Exec(`DELETE FROM characteristics`); err == nil {
		t.Fatal("a read-only store accepted a DELETE")
	}
	if n, err := ro.CountRows("characteristics"); err != nil || n == 0 {
		t.Errorf("read-only store: %d characteristics (%v)", n, err)
	}
}
