package table

import (
	"bytes"
	"context"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/presage-dvm/presage/sim/result"
)

var update = flag.Bool("update", false, "rewrite docs/exports.md")

// TestDocsUpToDate: docs/exports.md is what WriteDocs writes from the
// table definitions; -update rewrites it.
func TestDocsUpToDate(t *testing.T) {
	var b bytes.Buffer
	if err := WriteDocs(&b); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join("..", "..", "docs", "exports.md")
	if *update {
		if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, b.Bytes()) {
		t.Errorf("%s is out of date: go test ./exports/table -run TestDocsUpToDate -update", path)
	}
}

// TestColumnsDescribed: every column of every exported table has a
// description, and the Arrow fields carry it with the unit.
func TestColumnsDescribed(t *testing.T) {
	for _, tb := range Exported() {
		schema := tb.ArrowSchema(1)
		for i, c := range tb.Columns {
			if c.Doc == "" {
				t.Errorf("%s.%s: no description", tb.Name, c.Name)
			}
			md := schema.Field(i).Metadata
			if d, ok := md.GetValue("description"); !ok || d != c.Doc {
				t.Errorf("%s.%s: field metadata %v", tb.Name, c.Name, md)
			}
			if u, _ := md.GetValue("unit"); u != c.Unit {
				t.Errorf("%s.%s: unit %q in the metadata, %q in the definition", tb.Name, c.Name, u, c.Unit)
			}
		}
	}
	if u, _ := Runs.ArrowSchema(1).Field(Runs.ArrowSchema(1).FieldIndices("tstart_us")[0]).Metadata.GetValue("unit"); u != "µs" {
		t.Errorf("runs.tstart_us unit %q, want µs", u)
	}
}

// TestCharacteristicsTable: one row per characteristic of sim/result.
func TestCharacteristicsTable(t *testing.T) {
	var rows int64
	n, err := Stream(context.Background(), nil, Characteristics, -1, 10, func(rec arrow.RecordBatch) error {
		rows += rec.NumRows()
		return nil
	})
	if err != nil || n != int64(len(result.Chars)) || rows != n {
		t.Errorf("%d rows streamed (%d in batches, %v), want %d", n, rows, err, len(result.Chars))
	}
}

// TestTimesAreTimestamps: created_at is an Arrow timestamp in UTC.
func TestTimesAreTimestamps(t *testing.T) {
	s := Runs.ArrowSchema(0)
	f := s.Field(s.FieldIndices("created_at")[0])
	if ts, ok := f.Type.(*arrow.TimestampType); !ok || ts.TimeZone != "UTC" || ts.Unit != arrow.Second {
		t.Errorf("created_at is %s, want timestamp[s, UTC]", f.Type)
	}
}
