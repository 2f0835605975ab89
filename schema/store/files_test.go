package store

import (
	"context"
	"path/filepath"
	"testing"
)

// TestGetOptionalAndDuplicate looks up rows that are there and not, and
// recognises the store refusing a second row with the same sha256.
func TestGetOptionalAndDuplicate(t *testing.T) {
	s, err := Open(filepath.Join(t.TempDir(), "store.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	type row struct {
		ID   int64  `db:"id"`
		Name string `db:"name"`
	}
	const query = `SELECT id, name FROM machines WHERE sha256 = ?`
	if r, found, err := getOptional[row](ctx, s.db, query, "nope"); err != nil || found || r != (row{}) {
		t.Fatalf("getOptional of a missing row = %+v, %v, %v", r, found, err)
	}
	insert := `INSERT INTO machines(name, path, sha256, format, root, processors, search, source, ingested_at)
		VALUES ('m', 'm.par', 'abc', 'flat', 'r', 1, 0, '', 'now')`
	if _, err := s.db.Exec(insert); err != nil {
		t.Fatal(err)
	}
	if r, found, err := getOptional[row](ctx, s.db, query, "abc"); err != nil || !found || r.ID == 0 || r.Name != "m" {
		t.Fatalf("getOptional = %+v, %v, %v", r, found, err)
	}
	if _, _, err := getOptional[row](ctx, s.db, `SELECT id, name FROM nosuchtable`); err == nil {
		t.Error("getOptional hid a query error")
	}
	_, err = s.db.Exec(insert)
	if !isDuplicate(err, "machines") || isDuplicate(err, "traces") || isDuplicate(nil, "machines") {
		t.Errorf("isDuplicate misjudged %v", err)
	}
}
