// Package storetest gives the tests of the packages that write and read
// the store (the ingesters, the exports) a fresh store and the round trip
// of a run through it. Only tests import it.
package storetest

import (
	"path/filepath"
	"testing"

	"github.com/jmoiron/sqlx"

	"github.com/presage-dvm/presage/schema"
	"github.com/presage-dvm/presage/sim/result"
)

// Open returns an empty store in a temporary directory of tb, closed when
// the test ends.
func Open(tb testing.TB) *sqlx.DB {
	tb.Helper()
	db, err := schema.Open(filepath.Join(tb.TempDir(), "store.db"))
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { db.Close() })
	return db
}

// Save stores run in db in one transaction; run.ID is set.
func Save(tb testing.TB, db *sqlx.DB, run *result.Run) {
	tb.Helper()
	tx, err := db.Beginx()
	if err != nil {
		tb.Fatal(err)
	}
	defer tx.Rollback() // no-op after Commit
	if err := result.Save(tx, run, result.SaveOptions{}); err != nil {
		tb.Fatal(err)
	}
	if err := tx.Commit(); err != nil {
		tb.Fatal(err)
	}
}

// Load reads run id back from db.
func Load(tb testing.TB, db *sqlx.DB, id int64) *result.Run {
	tb.Helper()
	run, err := result.Load(db, id)
	if err != nil {
		tb.Fatal(err)
	}
	return run
}

// Count returns the number of rows of table.
func Count(tb testing.TB, db *sqlx.DB, table string) int {
	tb.Helper()
	var n int
	if err := db.Get(&n, "SELECT count(*) FROM "+table); err != nil {
		tb.Fatal(err)
	}
	return n
}

// RoundTrip stores run in a fresh store and reads it back, as the commands
// that export stored runs see it.
func RoundTrip(tb testing.TB, run *result.Run) *result.Run {
	tb.Helper()
	db := Open(tb)
	Save(tb, db, run)
	return Load(tb, db, run.ID)
}
