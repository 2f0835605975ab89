package table_test

import (
	"context"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/presage-dvm/presage/exports/fixture"
	"github.com/presage-dvm/presage/exports/table"
	"github.com/presage-dvm/presage/ingest/storetest"
	"github.com/presage-dvm/presage/schema"
	"github.com/presage-dvm/presage/sim/result"
)

// wantPath builds an interval's path from the run as saved.
func wantPath(run *result.Run, iv *result.Interval) string {
	var parts []string
	for p := iv; p != nil; p = run.Interval(p.Parent) {
		if p.Type == result.Main {
			parts = append(parts, "Main")
		} else {
			parts = append(parts, string(p.Type)+"@"+p.File+":"+strconv.Itoa(p.Line))
		}
		if p.Parent == 0 {
			break
		}
	}
	for i, j := 0, len(parts)-1; i < j; i, j = i+1, j-1 {
		parts[i], parts[j] = parts[j], parts[i]
	}
	return strings.Join(parts, "->")
}

func TestViews(t *testing.T) {
	for _, spec := range []fixture.Spec{
		fixture.Small,
		{Runs: 3, Intervals: 40, Procs: 2, Sweeps: 0, Seed: 7}, // deeper trees, no sweeps
	} {
		testViews(t, spec)
	}
}

func testViews(t *testing.T, spec fixture.Spec) {
	db, _, built := fixture.NewStore(t, spec)
	maxLevel := 0
	for _, run := range built.Runs {
		for _, iv := range run.Intervals {
			var path string
			var exec, eff float64
			err := db.QueryRow(`SELECT path, "Execution_time", "Efficiency" FROM v_intervals_wide
				WHERE run_id = ? AND interval_id = ?`, run.ID, iv.ID).Scan(&path, &exec, &eff)
			if err != nil {
				t.Fatalf("run %d interval %d: %v", run.ID, iv.ID, err)
			}
			maxLevel = max(maxLevel, iv.Level)
			if want := wantPath(run, iv); path != want {
				t.Errorf("run %d interval %d: path %q, want %q", run.ID, iv.ID, path, want)
			}
			if exec != iv.Values[result.ExecutionTime] || eff != iv.Values[result.Efficiency] {
				t.Errorf("run %d interval %d: wide exec, eff = %g, %g; want %g, %g", run.ID, iv.ID,
					exec, eff, iv.Values[result.ExecutionTime], iv.Values[result.Efficiency])
			}
		}
	}
	var n, procRows, intervalRows, nullProcs int
	if err := db.QueryRow(`SELECT count(*), count(proc), count(*) - count(proc) FROM v_values_long`).Scan(&n, &procRows, &nullProcs); err != nil {
		t.Fatal(err)
	}
	if err := db.QueryRow(`SELECT count(*) FROM interval_proc_values`).Scan(&intervalRows); err != nil {
		t.Fatal(err)
	}
	if procRows != intervalRows {
		t.Errorf("v_values_long: %d per-processor rows, store has %d", procRows, intervalRows)
	}
	if err := db.QueryRow(`SELECT count(*) FROM interval_values`).Scan(&intervalRows); err != nil {
		t.Fatal(err)
	}
	if nullProcs != intervalRows {
		t.Errorf("v_values_long: %d interval rows (proc NULL), store has %d", nullProcs, intervalRows)
	}
	var stats, statRows int
	if err := db.QueryRow(`SELECT (SELECT count(*) FROM v_stats_long), (SELECT count(*) FROM interval_stats)`).Scan(&stats, &statRows); err != nil {
		t.Fatal(err)
	}
	if stats != statRows || stats == 0 {
		t.Errorf("v_stats_long: %d rows, store has %d comparative values", stats, statRows)
	}
	// The sweep of a run outside any sweep is 0.
	var zero int
	if err := db.QueryRow(`SELECT count(*) FROM v_runs WHERE sweep_id = 0`).Scan(&zero); err != nil {
		t.Fatal(err)
	}
	if want := (spec.Runs + spec.Sweeps) / (spec.Sweeps + 1); zero != want {
		t.Errorf("v_runs: %d runs in sweep 0, want %d", zero, want)
	}
	t.Logf("%+v: paths checked down to level %d", spec, maxLevel)
}

func TestStream(t *testing.T) {
	db, _, built := fixture.NewStore(t, fixture.Small)
	ctx := context.Background()
	for _, tb := range table.All() {
		for _, sweep := range append([]int64{0}, built.Sweeps...) {
			want, err := fixture.Expected(ctx, db, tb.Name, sweep)
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

func TestStreamRejectsUnexpectedNull(t *testing.T) {
	db, _, _ := fixture.NewStore(t, fixture.Spec{Runs: 1, Intervals: 2, Procs: 1, Seed: 2})
	run := &result.Run{Kind: result.Measured, Program: "m", Config: result.Config{Grid: []int{2}},
		Intervals: []*result.Interval{{ID: 1, Type: result.Main, File: "a.f"}}}
	storetest.Save(t, db, run)
	strict := table.Table{Name: "strict", View: "v_runs", Columns: []table.Column{{Name: "machine", Kind: table.String}}}
	_, err := table.Stream(context.Background(), db, strict, 0, 10, func(arrow.RecordBatch) error { return nil })
	if err == nil || !strings.Contains(err.Error(), "machine") {
		t.Fatalf("NULL machine in a non-nullable column: error %v, want one naming the column", err)
	}
}

func TestSweeps(t *testing.T) {
	db, _, built := fixture.NewStore(t, fixture.Small)
	ctx := context.Background()
	all, err := table.Sweeps(ctx, db, 0)
	if err != nil {
		t.Fatal(err)
	}
	if want := append([]int64{0}, built.Sweeps...); !slices.Equal(all, want) {
		t.Errorf("Sweeps(0) = %v, want %v", all, want)
	}
	one, err := table.Sweeps(ctx, db, built.Sweeps[1])
	if err != nil || !slices.Equal(one, built.Sweeps[1:2]) {
		t.Errorf("Sweeps(%d) = %v, %v", built.Sweeps[1], one, err)
	}
	if _, err := table.Sweeps(ctx, db, 999); err == nil {
		t.Error("Sweeps(999): no error for a sweep without runs")
	}
}

func TestSweepsRefusesOldStore(t *testing.T) {
	db, _, _ := fixture.NewStore(t, fixture.Small)
	if _, err := db.Exec(`DELETE FROM schema_version WHERE version = ?`, schema.Version); err != nil {
		t.Fatal(err)
	}
	if _, err := table.Sweeps(context.Background(), db, 0); err == nil {
		t.Error("no error for a store older than the build")
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
		table.MetaSchemaVersion: strconv.Itoa(schema.Version), table.MetaTable: "values", table.MetaSweepID: "7",
	} {
		if i := md.FindKey(k); i < 0 || md.Values()[i] != want {
			t.Errorf("metadata %s = %v, want %s", k, md, want)
		}
	}
	if n := len(table.Wide.Columns); n != len(table.Values.Columns)-10+8+int(result.NumChars) {
		t.Errorf("wide table has %d columns", n)
	}
}
