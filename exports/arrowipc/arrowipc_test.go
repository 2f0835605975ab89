package arrowipc_test

import (
	"context"
	"os"
	"strconv"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/ipc"

	"github.com/presage-dvm/presage/exports/arrowipc"
	"github.com/presage-dvm/presage/exports/table"
	"github.com/presage-dvm/presage/internal/fixture"
	"github.com/presage-dvm/presage/schema/stored"
)

func TestWrite(t *testing.T) {
	for _, zstd := range []bool{false, true} {
		t.Run("zstd="+strconv.FormatBool(zstd), func(t *testing.T) { testWrite(t, zstd) })
	}
}

func testWrite(t *testing.T, zstd bool) {
	db, _, built := fixture.NewStore(t, fixture.Small)
	ctx := context.Background()
	dir := t.TempDir()
	sum, err := arrowipc.Write(ctx, db, dir, arrowipc.Options{BatchRows: 300, Zstd: zstd})
	if err != nil {
		t.Fatal(err)
	}
	sweeps := append([]int64{0}, built.Sweeps...)
	// Every sweep's file of each partitioned table, and the
	// characteristics table once.
	if want := len(table.All())*len(sweeps) + 1; len(sum.Files) != want {
		t.Fatalf("%d files, want %d", len(sum.Files), want)
	}
	for _, tb := range table.All() {
		for _, s := range sweeps {
			path := table.PartPath(dir, tb.Name, s, "arrow")
			want, err := built.Expected(tb.Name, s)
			if err != nil {
				t.Fatal(err)
			}
			rows, total := readBack(t, path, want.Column, tb, s)
			if !want.Matches(rows, total) {
				t.Errorf("%s: %d rows, sum(%s) %g; store has %d, %g", path, rows, want.Column, total, want.Rows, want.Sum)
			}
		}
	}
}

// readBack reads an IPC file with ipc.NewFileReader, checks its schema
// metadata and returns its row count and the sum of column col.
func readBack(t *testing.T, path, col string, tb table.Table, sweep int64) (int64, float64) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r, err := ipc.NewFileReader(f)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	defer r.Close()
	md := r.Schema().Metadata()
	for k, want := range map[string]string{
		table.MetaSchemaVersion: strconv.Itoa(stored.SchemaVersion), table.MetaTable: tb.Name,
		table.MetaSweepID: strconv.FormatInt(sweep, 10),
	} {
		if i := md.FindKey(k); i < 0 || md.Values()[i] != want {
			t.Errorf("%s: metadata %s missing or not %s: %v", path, k, want, md)
		}
	}
	if n := len(r.Schema().Fields()); n != len(tb.Columns) {
		t.Errorf("%s: %d columns, want %d", path, n, len(tb.Columns))
	}
	idx := r.Schema().FieldIndices(col)
	if len(idx) != 1 {
		t.Fatalf("%s: no column %s", path, col)
	}
	var rows int64
	var sum float64
	for i := 0; i < r.NumRecords(); i++ {
		rec, err := r.RecordBatch(i)
		if err != nil {
			t.Fatalf("%s: batch %d: %v", path, i, err)
		}
		rows += rec.NumRows()
		sum += fixture.Sum(rec.Column(idx[0]))
	}
	return rows, sum
}
