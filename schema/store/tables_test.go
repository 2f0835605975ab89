package store_test

import (
	"context"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/presage-dvm/presage/internal/fixture"
	"github.com/presage-dvm/presage/schema"
	"github.com/presage-dvm/presage/schema/store"
	"github.com/presage-dvm/presage/schema/stored"
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
	slices.Reverse(parts)
	return strings.Join(parts, "->")
}

// viewCount returns the single number query selects.
func viewCount(t *testing.T, st *store.Store, query string, args ...any) string {
	t.Helper()
	rows, err := st.ViewRows(query, args...)
	if err != nil || len(rows) != 1 || len(rows[0]) != 1 {
		t.Fatalf("%s: %v, %v", query, rows, err)
	}
	return rows[0][0]
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
	st, _, built := fixture.NewStore(t, spec)
	maxLevel := 0
	for _, run := range built.Runs {
		for _, iv := range run.Intervals {
			rows, err := st.ViewRows(`SELECT path, "Execution_time", "Efficiency" FROM v_intervals_wide
				WHERE run_id = ? AND interval_id = ?`, run.ID, iv.ID)
			if err != nil || len(rows) != 1 {
				t.Fatalf("run %d interval %d: %v, %v", run.ID, iv.ID, rows, err)
			}
			maxLevel = max(maxLevel, iv.Level)
			if want := wantPath(run, iv); rows[0][0] != want {
				t.Errorf("run %d interval %d: path %q, want %q", run.ID, iv.ID, rows[0][0], want)
			}
			want := []string{store.Cell(iv.Values[result.ExecutionTime]), store.Cell(iv.Values[result.Efficiency])}
			if !slices.Equal(rows[0][1:], want) {
				t.Errorf("run %d interval %d: wide exec, eff = %v; want %v", run.ID, iv.ID, rows[0][1:], want)
			}
		}
	}
	if got, want := viewCount(t, st, `SELECT count(proc) FROM v_values_long`), viewCount(t, st, `SELECT count(*) FROM interval_proc_values`); got != want {
		t.Errorf("v_values_long: %s per-processor rows, store has %s", got, want)
	}
	if got, want := viewCount(t, st, `SELECT count(*) - count(proc) FROM v_values_long`), viewCount(t, st, `SELECT count(*) FROM interval_values`); got != want {
		t.Errorf("v_values_long: %s interval rows (proc NULL), store has %s", got, want)
	}
	stats, statRows := viewCount(t, st, `SELECT count(*) FROM v_stats_long`), viewCount(t, st, `SELECT count(*) FROM interval_stats`)
	if stats != statRows || stats == "0" {
		t.Errorf("v_stats_long: %s rows, store has %s comparative values", stats, statRows)
	}
	// The sweep of a run outside any sweep is 0.
	zero := viewCount(t, st, `SELECT count(*) FROM v_runs WHERE sweep_id = 0`)
	if want := (spec.Runs + spec.Sweeps) / (spec.Sweeps + 1); zero != strconv.Itoa(want) {
		t.Errorf("v_runs: %s runs in sweep 0, want %d", zero, want)
	}
	t.Logf("%+v: paths checked down to level %d", spec, maxLevel)
}

func TestExportSweeps(t *testing.T) {
	st, _, built := fixture.NewStore(t, fixture.Small)
	ctx := context.Background()
	all, err := st.ExportSweeps(ctx, 0)
	if err != nil {
		t.Fatal(err)
	}
	if want := append([]int64{0}, built.Sweeps...); !slices.Equal(all, want) {
		t.Errorf("ExportSweeps(0) = %v, want %v", all, want)
	}
	one, err := st.ExportSweeps(ctx, built.Sweeps[1])
	if err != nil || !slices.Equal(one, built.Sweeps[1:2]) {
		t.Errorf("ExportSweeps(%d) = %v, %v", built.Sweeps[1], one, err)
	}
	if _, err := st.ExportSweeps(ctx, 999); err == nil {
		t.Error("ExportSweeps(999): no error for a sweep without runs")
	}
}

func TestExportSweepsRefusesOldStore(t *testing.T) {
	st, _, _ := fixture.NewStore(t, fixture.Small)
	if err := st.Exec(`DELETE FROM schema_version WHERE version = ?`, schema.Version); err != nil {
		t.Fatal(err)
	}
	if _, err := st.ExportSweeps(context.Background(), 0); err == nil {
		t.Error("no error for a store older than the build")
	}
}

// runCells and intervalCells render the columns a view repeats from v_runs
// and v_intervals.
func runCells(r *stored.RunRow) []string {
	return cells(r.SweepID, r.ID, r.Kind, r.Program, r.Machine, r.Grid, r.Procs, r.Network, r.TStartUS, r.TByteUS, r.Power)
}

func cells(vals ...any) []string {
	out := make([]string, len(vals))
	for i, v := range vals {
		out[i] = store.Cell(v)
	}
	return out
}

// The fast paths read the value tables, not the views: they must stream
// exactly the views' rows.
func TestRowsMatchViews(t *testing.T) {
	st, _, built := fixture.NewStore(t, fixture.Small)
	ctx := context.Background()
	for _, sweep := range append([]int64{0}, built.Sweeps...) {
		var values, wide [][]string
		err := st.ValueRows(ctx, sweep, func(r *stored.ValueRow) error {
			iv := r.Interval
			values = append(values, slices.Concat(runCells(r.Run),
				cells(iv.ID, iv.Path, iv.Type, iv.Level, iv.Line, r.Proc, r.Char.Name, r.Char.Unit, r.Char.Family, r.Value)))
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		err = st.WideRows(ctx, sweep, func(w *stored.WideRow) error {
			iv := w.Interval
			row := slices.Concat(runCells(w.Run), cells(iv.ID, iv.Parent, iv.Path, iv.Type, iv.Level, iv.File, iv.Line, iv.Count))
			for _, c := range stored.WideCharColumns() {
				row = append(row, store.Cell(stored.Null[float64]{V: w.Values[c.Char], Valid: w.Has[c.Char]}))
			}
			wide = append(wide, row)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		compareRows(t, st, "v_values_long", sweep, values)
		compareRows(t, st, "v_intervals_wide", sweep, wide)
	}
}

func compareRows(t *testing.T, st *store.Store, view string, sweep int64, got [][]string) {
	t.Helper()
	want, err := st.ViewRows(`SELECT * FROM `+view+` WHERE sweep_id = ?`, sweep)
	if err != nil {
		t.Fatal(err)
	}
	join := func(rows [][]string) []string {
		out := make([]string, len(rows))
		for i, r := range rows {
			out[i] = strings.Join(r, "|")
		}
		slices.Sort(out)
		return out
	}
	g, w := join(got), join(want)
	if len(g) == 0 || len(g) != len(w) {
		t.Fatalf("%s sweep %d: %d rows streamed, view has %d", view, sweep, len(g), len(w))
	}
	for i := range g {
		if g[i] != w[i] {
			t.Fatalf("%s sweep %d: row %d differs:\nfast %s\nview %s", view, sweep, i, g[i], w[i])
		}
	}
}

func TestIntervalValues(t *testing.T) {
	st, _, built := fixture.NewStore(t, fixture.Small)
	for _, sweep := range append([]int64{0}, built.Sweeps...) {
		want, err := built.IntervalValues(sweep)
		if err != nil {
			t.Fatal(err)
		}
		var got fixture.Check
		err = st.IntervalValues(context.Background(), sweep, "fixture", func(v stored.IntervalValue) error {
			if !strings.HasPrefix(v.Path, "Main") {
				t.Errorf("path %q does not start at Main", v.Path)
			}
			got.Rows++
			got.Sum += v.Value
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if !want.Matches(got.Rows, got.Sum) {
			t.Errorf("sweep %d: %d values, sum %g; want %d, %g", sweep, got.Rows, got.Sum, want.Rows, want.Sum)
		}
		none := 0
		if err := st.IntervalValues(context.Background(), sweep, "other", func(stored.IntervalValue) error { none++; return nil }); err != nil || none != 0 {
			t.Errorf("program other: %d values, %v", none, err)
		}
	}
}
