// Package storetest gives the tests of the packages that write and read
// the store (the ingesters, the exports) a fresh store and the round trip
// of a run through it. Only tests import it.
package storetest

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/presage-dvm/presage/schema/store"
	"github.com/presage-dvm/presage/sim/result"
)

// Open returns an empty store in a temporary directory of tb, closed when
// the test ends.
func Open(tb testing.TB) *store.Store {
	tb.Helper()
	st, err := store.Open(filepath.Join(tb.TempDir(), "store.db"))
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { st.Close() })
	return st
}

// Save stores run in st in one transaction; run.ID is set.
func Save(tb testing.TB, st *store.Store, run *result.Run) {
	tb.Helper()
	if err := st.SaveRun(context.Background(), run, store.SaveOptions{}); err != nil {
		tb.Fatal(err)
	}
}

// Load reads run id back from st.
func Load(tb testing.TB, st *store.Store, id int64) *result.Run {
	tb.Helper()
	run, err := st.Run(id)
	if err != nil {
		tb.Fatal(err)
	}
	return run
}

// Count returns the number of rows of table.
func Count(tb testing.TB, st *store.Store, table string) int {
	tb.Helper()
	n, err := st.CountRows(table)
	if err != nil {
		tb.Fatal(err)
	}
	return n
}

// RoundTrip stores run in a fresh store and reads it back, as the commands
// that export stored runs see it.
func RoundTrip(tb testing.TB, run *result.Run) *result.Run {
	tb.Helper()
	st := Open(tb)
	Save(tb, st, run)
	return Load(tb, st, run.ID)
}
