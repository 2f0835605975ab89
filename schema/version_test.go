package schema

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/jmoiron/sqlx"
)

// storeOfVersion returns a new store with the schema of the given
// version, as an older build made it, closed at the end of the test.
func storeOfVersion(t *testing.T, version int) *sqlx.DB {
	t.Helper()
	db, err := sqlx.Open("sqlite", "file:"+filepath.Join(t.TempDir(), fmt.Sprintf("v%d.db", version))+"?_pragma=foreign_keys(1)")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	if err := migrateTo(db, version); err != nil {
		t.Fatal(err)
	}
	return db
}
