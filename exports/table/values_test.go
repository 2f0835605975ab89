package table

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/jmoiron/sqlx"

	"github.com/presage-dvm/presage/exports/fixture"
)

// rowStrings renders every row of a table's sweep as text, sorted.
func rowStrings(t *testing.T, db *sqlx.DB, stream streamFunc, tb Table, sweep int64) []string {
	t.Helper()
	var out []string
	_, err := stream(context.Background(), db, tb, sweep, 77, func(rec arrow.RecordBatch) error {
		for r := 0; r < int(rec.NumRows()); r++ {
			var b strings.Builder
			for _, col := range rec.Columns() {
				fmt.Fprintf(&b, "%v|", col.GetOneForMarshal(r))
			}
			out = append(out, b.String())
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(out)
	return out
}

// TestFastPaths checks that the tidy and wide tables streamed from the
// value tables hold exactly the rows of their views.
func TestFastPaths(t *testing.T) {
	db, _, built := fixture.NewStore(t, fixture.Small)
	for _, c := range []struct {
		table Table
		fast  streamFunc
	}{{Values, streamValues}, {Wide, streamWide}} {
		for _, sweep := range append([]int64{0}, built.Sweeps...) {
			compareStreams(t, db, c.table, c.fast, sweep)
		}
	}
}

func compareStreams(t *testing.T, db *sqlx.DB, tb Table, stream streamFunc, sweep int64) {
	t.Helper()
	fast := rowStrings(t, db, stream, tb, sweep)
	view := rowStrings(t, db, streamView, tb, sweep)
	if len(fast) == 0 || len(fast) != len(view) {
		t.Fatalf("%s sweep %d: %d rows streamed, view has %d", tb.Name, sweep, len(fast), len(view))
	}
	for i := range fast {
		if fast[i] != view[i] {
			t.Fatalf("%s sweep %d: row %d differs:\nfast %s\nview %s", tb.Name, sweep, i, fast[i], view[i])
		}
	}
}
