package csvexport_test

import (
	"context"
	"encoding/csv"
	"os"
	"strconv"
	"testing"

	"github.com/presage-dvm/presage/exports/csvexport"
	"github.com/presage-dvm/presage/exports/table"
	"github.com/presage-dvm/presage/internal/fixture"
)

func TestWrite(t *testing.T) {
	db, _, built := fixture.NewStore(t, fixture.Small)
	ctx := context.Background()
	dir := t.TempDir()
	if _, err := csvexport.Write(ctx, db, dir, csvexport.Options{BatchRows: 128}); err != nil {
		t.Fatal(err)
	}
	for _, tb := range table.All() {
		for _, s := range append([]int64{0}, built.Sweeps...) {
			path := table.PartPath(dir, tb.Name, s, "csv")
			want, err := built.Expected(tb.Name, s)
			if err != nil {
				t.Fatal(err)
			}
			rows, sum, nulls := readBack(t, path, want.Column, tb)
			if !want.Matches(rows, sum) {
				t.Errorf("%s: %d rows, sum(%s) %g; store has %d, %g", path, rows, want.Column, sum, want.Rows, want.Sum)
			}
			if tb.Name == "values" {
				iv, err := built.IntervalValues(s)
				if err != nil {
					t.Fatal(err)
				}
				if nulls["proc"] != iv.Rows {
					t.Errorf("%s: %d empty proc fields, want %d interval-level rows", path, nulls["proc"], iv.Rows)
				}
			}
		}
	}
}

// readBack reads a CSV file with encoding/csv and returns its data row
// count, the sum of column col, and the number of empty fields per column.
func readBack(t *testing.T, path, col string, tb table.Table) (int64, float64, map[string]int64) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	if len(recs) == 0 || len(recs[0]) != len(tb.Columns) {
		t.Fatalf("%s: header %v, want the %d columns of %s", path, recs[0], len(tb.Columns), tb.Name)
	}
	idx := -1
	for i, name := range recs[0] {
		if name != tb.Columns[i].Name {
			t.Errorf("%s: column %d is %s, want %s", path, i, name, tb.Columns[i].Name)
		}
		if name == col {
			idx = i
		}
	}
	var sum float64
	nulls := map[string]int64{}
	for n, r := range recs[1:] {
		for i, v := range r {
			if v == "" {
				nulls[recs[0][i]]++
			}
		}
		v, err := strconv.ParseFloat(r[idx], 64)
		if err != nil {
			t.Fatalf("%s:%d: %s: %v", path, n+2, col, err)
		}
		sum += v
	}
	return int64(len(recs) - 1), sum, nulls
}
