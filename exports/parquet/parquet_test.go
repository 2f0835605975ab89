package parquet_test

import (
	"context"
	"os"
	"strconv"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
	pq "github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	"github.com/presage-dvm/presage/exports/parquet"
	"github.com/presage-dvm/presage/exports/table"
	"github.com/presage-dvm/presage/internal/fixture"
	"github.com/presage-dvm/presage/schema/stored"
)

// readBack reads a Parquet file with pqarrow and returns its row count,
// the sum of column col and the file's reader for further checks.
func readBack(t *testing.T, path, col string) (int64, float64, *file.Reader) {
	t.Helper()
	rd, err := file.OpenParquetFile(path, false)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	t.Cleanup(func() { rd.Close() })
	fr, err := pqarrow.NewFileReader(rd, pqarrow.ArrowReadProperties{BatchSize: 1000}, memory.DefaultAllocator)
	if err != nil {
		t.Fatal(err)
	}
	tbl, err := fr.ReadTable(context.Background())
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	defer tbl.Release()
	idx := tbl.Schema().FieldIndices(col)
	if len(idx) != 1 {
		t.Fatalf("%s: no column %s in %v", path, col, tbl.Schema())
	}
	var sum float64
	for _, chunk := range tbl.Column(idx[0]).Data().Chunks() {
		sum += fixture.Sum(chunk)
	}
	return tbl.NumRows(), sum, rd
}

func TestWrite(t *testing.T) {
	db, _, built := fixture.NewStore(t, fixture.Small)
	ctx := context.Background()
	dir := t.TempDir()
	sum, err := parquet.Write(ctx, db, dir, parquet.Options{BatchRows: 500})
	if err != nil {
		t.Fatal(err)
	}
	sweeps := append([]int64{0}, built.Sweeps...)
	// Every sweep's file of each partitioned table, and the
	// characteristics table once.
	if want := len(table.All())*len(sweeps) + 1; len(sum.Files) != want {
		t.Fatalf("%d files, want %d (4 tables x %d sweeps + characteristics)", len(sum.Files), want, len(sweeps))
	}
	for _, tb := range table.All() {
		for _, s := range sweeps {
			path := table.PartPath(dir, tb.Name, s, "parquet")
			want, err := built.Expected(tb.Name, s)
			if err != nil {
				t.Fatal(err)
			}
			rows, total, rd := readBack(t, path, want.Column)
			if !want.Matches(rows, total) {
				t.Errorf("%s: %d rows, sum(%s) %g; store has %d, %g", path, rows, want.Column, total, want.Rows, want.Sum)
			}
			checkMetadata(t, path, rd, tb, s)
		}
	}
}

func checkMetadata(t *testing.T, path string, rd *file.Reader, tb table.Table, sweep int64) {
	t.Helper()
	kv := rd.MetaData().KeyValueMetadata()
	for k, want := range map[string]string{
		table.MetaSchemaVersion: strconv.Itoa(stored.SchemaVersion),
		table.MetaTable:         tb.Name,
		table.MetaSweepID:       strconv.FormatInt(sweep, 10),
	} {
		if v := kv.FindValue(k); v == nil || *v != want {
			t.Errorf("%s: metadata %s = %v, want %s", path, k, v, want)
		}
	}
	if rd.NumRowGroups() == 0 {
		return
	}
	rg := rd.MetaData().RowGroup(0)
	for i, c := range tb.Columns {
		cc, err := rg.ColumnChunk(i)
		if err != nil {
			t.Fatal(err)
		}
		if cc.Compression() != compress.Codecs.Zstd {
			t.Errorf("%s: column %s compressed with %v, want zstd", path, c.Name, cc.Compression())
		}
		if c.Kind == table.String && !hasDictionary(cc.Encodings()) {
			t.Errorf("%s: string column %s encodings %v, want a dictionary", path, c.Name, cc.Encodings())
		}
	}
}

func hasDictionary(encs []pq.Encoding) bool {
	for _, e := range encs {
		if e == pq.Encodings.RLEDict || e == pq.Encodings.PlainDict {
			return true
		}
	}
	return false
}

func TestWriteOneSweep(t *testing.T) {
	db, _, built := fixture.NewStore(t, fixture.Small)
	dir := t.TempDir()
	s := built.Sweeps[0]
	sum, err := parquet.Write(context.Background(), db, dir, parquet.Options{SweepID: s, Tables: []table.Table{table.Runs}})
	if err != nil {
		t.Fatal(err)
	}
	if len(sum.Files) != 1 || sum.Files[0].Path != table.PartPath(dir, "runs", s, "parquet") {
		t.Fatalf("files %+v, want only runs of sweep %d", sum.Files, s)
	}
	if _, err := os.Stat(table.PartPath(dir, "runs", 0, "parquet")); !os.IsNotExist(err) {
		t.Errorf("sweep 0 written although sweep %d was asked for", s)
	}
	if _, err := parquet.Write(context.Background(), db, dir, parquet.Options{SweepID: 12345}); err == nil {
		t.Error("no error for a sweep without runs")
	}
}
