package table_test

import (
	"context"
	"errors"
	"io"
	"path/filepath"
	"slices"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/presage-dvm/presage/exports/table"
	"github.com/presage-dvm/presage/internal/fixture"
	"github.com/presage-dvm/presage/schema/stored"
	"github.com/presage-dvm/presage/sim/result"
)

func TestStream(t *testing.T) {
	db, _, built := fixture.NewStore(t, fixture.Small)
	ctx := context.Background()
	for _, tb := range table.All() {
		for _, sweep := range append([]int64{0}, built.Sweeps...) {
			want, err := built.Expected(tb.Name, sweep)
			if err != nil {
				t.Fatal(err)
			}
			const batch = 100
			var batches []int64
			var sum float64
			rows, err := table.Stream(ctx, db, tb, sweep, batch, func(rec arrow.RecordBatch) error {
				batches = append(batches, rec.NumRows())
				idx := rec.Schema().FieldIndices(want.Column)
				if len(idx) != 1 {
					t.Fatalf("%s: column %s not in %v", tb.Name, want.Column, rec.Schema())
				}
				sum += fixture.Sum(rec.Column(idx[0]))
				return nil
			})
			if err != nil {
				t.Fatalf("%s sweep %d: %v", tb.Name, sweep, err)
			}
			if !want.Matches(rows, sum) {
				t.Errorf("%s sweep %d: %d rows, sum %g; store has %d, %g", tb.Name, sweep, rows, sum, want.Rows, want.Sum)
			}
			for i, n := range batches {
				if n > batch || (i < len(batches)-1 && n != batch) || n == 0 {
					t.Errorf("%s sweep %d: batch sizes %v, want full batches of %d then the rest", tb.Name, sweep, batches, batch)
					break
				}
			}
		}
	}
}

// TestStreamWriterFails: an error of the batch writer (which runs beside
// the reader) ends the stream with that error, the reader stopped.
func TestStreamWriterFails(t *testing.T) {
	db, _, _ := fixture.NewStore(t, fixture.Small)
	values := table.All()[slices.IndexFunc(table.All(), func(t table.Table) bool { return t.Name == "values" })]
	full := errors.New("disk full")
	calls := 0
	rows, err := table.Stream(context.Background(), db, values, 0, 10, func(arrow.RecordBatch) error {
		if calls++; calls == 2 {
			return full
		}
		return nil
	})
	if !errors.Is(err, full) || calls != 2 {
		t.Errorf("writer failing on its 2nd batch: %v after %d calls", err, calls)
	}
	if rows < 20 {
		t.Errorf("%d rows read before the failure, want at least the 2 batches written", rows)
	}
}

func TestPartPath(t *testing.T) {
	for _, c := range []struct {
		table string
		sweep int64
		ext   string
		want  string
	}{
		{"values", 3, "parquet", "out/values/sweep_id=3/part-0.parquet"},
		{"runs", 0, "csv", "out/runs/sweep_id=0/part-0.csv"},
	} {
		if got := table.PartPath("out", c.table, c.sweep, c.ext); got != filepath.FromSlash(c.want) {
			t.Errorf("PartPath(%s, %d, %s) = %s, want %s", c.table, c.sweep, c.ext, got, c.want)
		}
	}
}

func TestArrowSchemaMetadata(t *testing.T) {
	s := table.Values.ArrowSchema(7)
	md := s.Metadata()
	for k, want := range map[string]string{
		table.MetaSchemaVersion: strconv.Itoa(stored.SchemaVersion), table.MetaTable: "values", table.MetaSweepID: "7",
	} {
		if i := md.FindKey(k); i < 0 || md.Values()[i] != want {
			t.Errorf("metadata %s = %v, want %s", k, md, want)
		}
	}
	if n := len(table.Wide.Columns); n != len(table.Values.Columns)-10+8+int(result.NumChars) {
		t.Errorf("wide table has %d columns", n)
	}
}

// TestFiltered: a run filter exports that run's rows alone, in its sweep
// only; a trace filter keeps the trace's runs.
func TestFiltered(t *testing.T) {
	db, _, built := fixture.NewStore(t, fixture.Small)
	ctx := context.Background()
	run := built.Runs[len(built.Runs)-1]
	src := table.Filtered(db, table.Filter{RunID: run.ID})
	sweeps, err := src.ExportSweeps(ctx, 0)
	if err != nil || len(sweeps) != 1 || sweeps[0] != run.SweepID {
		t.Fatalf("sweeps of run %d: %v (%v), want [%d]", run.ID, sweeps, err, run.SweepID)
	}
	for _, tb := range table.All() {
		ids := map[int64]bool{}
		if _, err := table.Stream(ctx, src, tb, run.SweepID, 100, func(rec arrow.RecordBatch) error {
			col := rec.Column(rec.Schema().FieldIndices("run_id")[0]).(*array.Int64)
			for i := 0; i < col.Len(); i++ {
				ids[col.Value(i)] = true
			}
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		if len(ids) != 1 || !ids[run.ID] {
			t.Errorf("%s filtered to run %d holds runs %v", tb.Name, run.ID, ids)
		}
	}
	all, err := table.Filtered(db, table.Filter{TraceID: built.TraceID}).ExportSweeps(ctx, 0)
	if err != nil || len(all) != len(built.Sweeps)+1 {
		t.Errorf("sweeps of the fixture's trace: %v (%v), want all %d", all, err, len(built.Sweeps)+1)
	}
}

// TestDense: with zeros explicit, every interval with per-processor values
// has every characteristic of every processor, and the values stored are
// those of the sparse table.
func TestDense(t *testing.T) {
	db, _, built := fixture.NewStore(t, fixture.Small)
	ctx := context.Background()
	for _, sweep := range append([]int64{0}, built.Sweeps...) {
		type key struct {
			run, iv, proc int64
			char          string
		}
		sparse := map[key]float64{}
		if err := db.ValueRows(ctx, sweep, func(r *stored.ValueRow) error {
			if r.Proc.Valid {
				sparse[key{r.Run.ID, r.Interval.ID, r.Proc.V, r.Char.Name}] = r.Value
			}
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		dense := map[key]float64{}
		perInterval := map[[2]int64]int64{}
		procs := map[int64]int64{}
		if err := table.Dense(db).ValueRows(ctx, sweep, func(r *stored.ValueRow) error {
			if r.Proc.Valid {
				dense[key{r.Run.ID, r.Interval.ID, r.Proc.V, r.Char.Name}] = r.Value
				perInterval[[2]int64{r.Run.ID, r.Interval.ID}]++
				procs[r.Run.ID] = r.Run.Procs
			}
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		for k, v := range sparse {
			if dense[k] != v {
				t.Errorf("sweep %d: %+v is %v dense, %v sparse", sweep, k, dense[k], v)
			}
		}
		for iv, n := range perInterval {
			if want := procs[iv[0]] * int64(len(result.Chars)); n != want {
				t.Errorf("sweep %d: run %d interval %d has %d dense values, want %d", sweep, iv[0], iv[1], n, want)
			}
		}
		if len(dense) <= len(sparse) && len(sparse) > 0 {
			t.Errorf("sweep %d: %d dense values, %d sparse: no zero made explicit", sweep, len(dense), len(sparse))
		}
	}
}

// discard is a format that writes nothing.
var discard = table.Format{Ext: "bin", New: func(io.Writer, table.Table, int64) (table.BatchWriter, error) { return nop{}, nil }}

type nop struct{}

func (nop) Write(arrow.RecordBatch) error { return nil }
func (nop) Close() error                  { return nil }

// TestExportProgress: the progress callback hears the rows written, one
// call at a time although two files are written at once, up to every row
// of the export.
func TestExportProgress(t *testing.T) {
	db, _, _ := fixture.NewStore(t, fixture.Small)
	var seen []int64
	var inside, overlaps atomic.Int32
	progress := func(rows int64) {
		if inside.Add(1) > 1 {
			overlaps.Add(1)
		}
		time.Sleep(100 * time.Microsecond) // a bar drawing: long enough for the other writer to come
		seen = append(seen, rows)
		inside.Add(-1)
	}
	sum, err := table.Export(context.Background(), db, t.TempDir(), table.ExportOptions{BatchRows: 10, Progress: progress}, discard)
	if err != nil {
		t.Fatal(err)
	}
	if overlaps.Load() > 0 || len(seen) < 2 || seen[len(seen)-1] != sum.Rows || !slices.IsSorted(seen) {
		t.Errorf("progress %v (%d calls during another); want one call at a time, counts increasing up to the %d rows written",
			seen, overlaps.Load(), sum.Rows)
	}
}
