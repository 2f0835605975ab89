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

// TestValuesFastPath checks that the tidy table streamed from the value
// tables holds exactly the rows of v_values_long.
func TestValuesFastPath(t *testing.T) {
	db, _, built := fixture.NewStore(t, fixture.Small)
	for _, sweep := range append([]int64{0}, built.Sweeps...) {
		fast := rowStrings(t, db, streamValues, Values, sweep)
		view := rowStrings(t, db, streamView, Values, sweep)
		if len(fast) == 0 || len(fast) != len(view) {
			t.Fatalf("sweep %d: %d rows streamed, view has %d", sweep, len(fast), len(view))
		}
		for i := range fast {
			if fast[i] != view[i] {
				t.Fatalf("sweep %d: row %d differs:\nfast %s\nview %s", sweep, i, fast[i], view[i])
			}
		}
	}
}
