package queries_test

import (
	"context"
	"math"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/presage-dvm/presage/internal/fixture"
	"github.com/presage-dvm/presage/orders/calibration"
	"github.com/presage-dvm/presage/queries"
	"github.com/presage-dvm/presage/schema/store"
	"github.com/presage-dvm/presage/sim/result"
)

func TestList(t *testing.T) {
	want := []string{"best_config", "best_grid", "calibration_probes", "compare_runs", "func_profile", "measured_vs_predicted", "scaling", "top_lost"}
	var got []string
	for _, q := range queries.List() {
		got = append(got, q.Name)
		if q.Description == "" || !strings.Contains(q.Describe(), q.Name) {
			t.Errorf("%s: no description", q.Name)
		}
		for _, p := range q.Params {
			if !strings.Contains(q.SQL, ":"+p.Name) {
				t.Errorf("%s: parameter %s declared but not used", q.Name, p.Name)
			}
		}
	}
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("List() = %v, want %v", got, want)
	}
	if _, err := queries.Get("nope"); err == nil {
		t.Error("Get(nope): no error")
	}
}

func TestParse(t *testing.T) {
	for _, c := range []struct {
		text, err string
	}{
		{"-- name: a\n-- description: d\n-- param: x int = 3 : an x\nSELECT :x", ""},
		{"-- name: a\nSELECT 1", "description"},
		{"-- name: a\n-- description: d\n-- param: x integer = 3\nSELECT :x", "type"},
		{"-- name: a\n-- description: d\n-- param: x int = three\nSELECT :x", "not an integer"},
		{"-- name: a\n-- description: d\n-- param: s text = abc\nSELECT :s", "quoted"},
		{"-- name: a\n-- description: d\n-- param: x\nSELECT :x", "expected"},
	} {
		_, err := queries.Parse("t.sql", c.text)
		if c.err == "" && err != nil || c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)) {
			t.Errorf("Parse(%q): error %v, want one containing %q", c.text, err, c.err)
		}
	}
	q, err := queries.Parse("t.sql", "-- name: a\n-- description: first\n--   second\n-- param: s text = 'it''s' : a\n--   text\nSELECT :s")
	if err != nil {
		t.Fatal(err)
	}
	if q.Description != "first second" || q.Params[0].Default != "it's" || q.Params[0].Description != "a text" {
		t.Errorf("Parse: %+v", q)
	}
}

func TestArgs(t *testing.T) {
	q, err := queries.Get("compare_runs")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := q.Args(map[string]any{"run_a": 1}); err == nil || !strings.Contains(err.Error(), "run_b") {
		t.Errorf("missing required run_b: error %v", err)
	}
	if _, err := q.Args(map[string]any{"run_a": 1, "run_b": 2, "bogus": 3}); err == nil || !strings.Contains(err.Error(), "bogus") {
		t.Errorf("unknown parameter: error %v", err)
	}
	if _, err := q.Args(map[string]any{"run_a": "x", "run_b": 2}); err == nil {
		t.Error("run_a=x: no error")
	}
	args, err := q.Args(map[string]any{"run_a": "7", "run_b": 2.0})
	if err != nil {
		t.Fatal(err)
	}
	got := args
	if got["run_a"] != int64(7) || got["run_b"] != int64(2) || got["characteristic"] != "Execution_time" {
		t.Errorf("Args = %v", got)
	}
}

// rowsOf runs a named query and returns its rows as maps.
func rowsOf(t *testing.T, name string, run func(q queries.Query) ([]map[string]any, error)) []map[string]any {
	t.Helper()
	q, err := queries.Get(name)
	if err != nil {
		t.Fatal(err)
	}
	rows, err := run(q)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return rows
}

// query runs q on st with the given parameters and returns its rows as maps.
func query(ctx context.Context, st *store.Store, q queries.Query, given map[string]any) ([]map[string]any, error) {
	args, err := q.Args(given)
	if err != nil {
		return nil, err
	}
	var cols []string
	var out []map[string]any
	err = st.Query(ctx, q.SQL, args, func(c []string) error { cols = c; return nil }, func(vals []any) error {
		m := map[string]any{}
		for i, c := range cols {
			m[c] = vals[i]
		}
		out = append(out, m)
		return nil
	})
	return out, err
}

func num(v any) float64 {
	switch x := v.(type) {
	case int64:
		return float64(x)
	case float64:
		return x
	}
	return math.NaN()
}

func approx(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Max(1, math.Abs(b)) }

func TestQueries(t *testing.T) {
	st, _, built := fixture.NewStore(t, fixture.Small)
	ctx := context.Background()
	run := func(args map[string]any) func(q queries.Query) ([]map[string]any, error) {
		return func(q queries.Query) ([]map[string]any, error) { return query(ctx, st, q, args) }
	}
	root := func(r *result.Run) result.Values { return r.Intervals[0].Values }
	last := built.Runs[len(built.Runs)-1]

	t.Run("scaling", func(t *testing.T) {
		rows := rowsOf(t, "scaling", run(map[string]any{"path": "Main"}))
		if len(rows) != len(built.Runs) {
			t.Fatalf("%d rows for Main, want one per run (%d)", len(rows), len(built.Runs))
		}
		// The base is the run with the fewest processors (then the
		// fastest) of the same kind, machine, network and overrides.
		type key struct {
			kind, machine, network string
			tstart, tbyte, power   float64
		}
		keyOf := func(r *result.Run) key {
			c := r.Config
			return key{string(r.Kind), c.Machine, c.Network, c.TStart, c.TByte, c.Power}
		}
		base := map[key]*result.Run{}
		for _, r := range built.Runs {
			b := base[keyOf(r)]
			if b == nil || r.Config.Procs() < b.Config.Procs() ||
				r.Config.Procs() == b.Config.Procs() && root(r)[result.ExecutionTime] < root(b)[result.ExecutionTime] {
				base[keyOf(r)] = r
			}
		}
		if len(base) < 2 {
			t.Fatalf("the fixture has %d series: the test needs several", len(base))
		}
		byRun := map[int64]*result.Run{}
		for _, r := range built.Runs {
			byRun[r.ID] = r
		}
		for i, row := range rows {
			r := byRun[row["run_id"].(int64)]
			b := base[keyOf(r)]
			want := root(b)[result.ExecutionTime] / root(r)[result.ExecutionTime]
			if !approx(num(row["speedup"]), want) || num(row["base_procs"]) != float64(b.Config.Procs()) {
				t.Errorf("run %d: speedup %v base %v, want %g base %d", r.ID, row["speedup"], row["base_procs"], want, b.Config.Procs())
			}
			if i > 0 && keyOf(byRun[rows[i-1]["run_id"].(int64)]) == keyOf(r) && num(row["procs"]) < num(rows[i-1]["procs"]) {
				t.Errorf("rows of a series not ordered by procs: %v", rows)
			}
		}
	})

	t.Run("top_lost", func(t *testing.T) {
		rows := rowsOf(t, "top_lost", run(map[string]any{"limit": 3}))
		if len(rows) != 3 {
			t.Fatalf("%d rows, want 3", len(rows))
		}
		var lost []float64
		for _, iv := range last.Intervals {
			lost = append(lost, iv.Values[result.LostTime])
		}
		sort.Sort(sort.Reverse(sort.Float64Slice(lost)))
		for i, row := range rows {
			if num(row["lost_time"]) != lost[i] {
				t.Errorf("row %d: lost %v, want %g (latest run %d)", i, row["lost_time"], lost[i], last.ID)
			}
		}
	})

	t.Run("best_config", func(t *testing.T) {
		rows := rowsOf(t, "best_config", run(nil))
		best := map[string]*result.Run{}
		better := map[string]func(a, b *result.Run) bool{
			"time":       func(a, b *result.Run) bool { return root(a)[result.ExecutionTime] < root(b)[result.ExecutionTime] },
			"efficiency": func(a, b *result.Run) bool { return root(a)[result.Efficiency] > root(b)[result.Efficiency] },
			"cost": func(a, b *result.Run) bool {
				return root(a)[result.ExecutionTime]*float64(a.Config.Procs()) < root(b)[result.ExecutionTime]*float64(b.Config.Procs())
			},
		}
		for obj, f := range better {
			for _, r := range built.Runs {
				if best[obj] == nil || f(r, best[obj]) {
					best[obj] = r
				}
			}
		}
		if len(rows) != 3 {
			t.Fatalf("%d rows, want 3 objectives: %v", len(rows), rows)
		}
		for _, row := range rows {
			obj := row["objective"].(string)
			if row["run_id"].(int64) != best[obj].ID {
				t.Errorf("best %s: run %v, want %d", obj, row["run_id"], best[obj].ID)
			}
		}
	})

	t.Run("best_grid", func(t *testing.T) {
		rows := rowsOf(t, "best_grid", run(nil))
		type key struct {
			machine, network     string
			tstart, tbyte, power float64
			procs                int
		}
		best, grids := map[key]*result.Run{}, map[key]int{}
		for _, r := range built.Runs {
			if r.Kind != result.Predicted {
				continue
			}
			c := r.Config
			k := key{c.Machine, c.Network, c.TStart, c.TByte, c.Power, c.Procs()}
			grids[k]++
			if b := best[k]; b == nil || root(r)[result.ExecutionTime] < root(b)[result.ExecutionTime] {
				best[k] = r
			}
		}
		if len(rows) != len(best) {
			t.Fatalf("%d rows, want one per processor count and series (%d)", len(rows), len(best))
		}
		for _, row := range rows {
			r := map[int64]*result.Run{}
			for _, b := range best {
				r[b.ID] = b
			}
			b := r[row["run_id"].(int64)]
			if b == nil {
				t.Errorf("row %v is not the fastest grid of its count", row)
				continue
			}
			c := b.Config
			n := grids[key{c.Machine, c.Network, c.TStart, c.TByte, c.Power, c.Procs()}]
			if num(row["grids"]) != float64(n) || num(row["slowest_ratio"]) < 1 {
				t.Errorf("run %d: %v grids, slowest ratio %v; want %d grids and a ratio ≥ 1", b.ID, row["grids"], row["slowest_ratio"], n)
			}
		}
	})

	t.Run("compare_runs", func(t *testing.T) {
		a, b := built.Runs[0], built.Runs[1]
		rows := rowsOf(t, "compare_runs", run(map[string]any{"run_a": a.ID, "run_b": b.ID}))
		if len(rows) != len(a.Intervals) {
			t.Fatalf("%d rows, want one per interval (%d)", len(rows), len(a.Intervals))
		}
		for _, row := range rows {
			if row["path"] == "Main" {
				av, bv := root(a)[result.ExecutionTime], root(b)[result.ExecutionTime]
				if num(row["a"]) != av || num(row["b"]) != bv || !approx(num(row["ratio"]), bv/av) {
					t.Errorf("Main: %v, want a=%g b=%g", row, av, bv)
				}
			}
		}
		all := rowsOf(t, "compare_runs", run(map[string]any{"run_a": a.ID, "run_b": b.ID, "characteristic": ""}))
		if len(all) != len(a.Intervals)*int(result.NumChars) {
			t.Errorf("all characteristics: %d rows, want %d", len(all), len(a.Intervals)*int(result.NumChars))
		}
	})

	t.Run("func_profile", func(t *testing.T) {
		// The calls table is written on request (presage calls).
		info, err := st.Trace(strconv.FormatInt(built.TraceID, 10))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := st.MaterializeCalls(context.Background(), info); err != nil {
			t.Fatal(err)
		}
		rows := rowsOf(t, "func_profile", run(nil))
		var calls, pct float64
		for i, row := range rows {
			calls += num(row["calls"])
			pct += num(row["ret_pct"])
			if i > 0 && num(row["ret_time"]) > num(rows[i-1]["ret_time"]) {
				t.Errorf("not ordered by ret_time: %v", rows)
			}
		}
		if calls != float64(fixture.Small.Calls) || math.Abs(pct-100) > 0.05 {
			t.Errorf("func_profile: %g calls, %g%% of ret_time; want %d, 100", calls, pct, fixture.Small.Calls)
		}
		want := built.RetTime
		var got float64
		for _, row := range rows {
			got += num(row["ret_time"])
		}
		if !approx(got, want) {
			t.Errorf("total ret_time %g, want %g", got, want)
		}
	})
}

// TestCalibrationProbes: two calibrations of one machine whose probes ran
// at 3.4e-10 and 8.5e-10 s per multiply-add (medians of 5 and of 4 runs,
// the even count's median the mean of its middle two) and one of another
// machine: a row per calibration and machine, the second 1.5 times slower
// than the first, the other machine's compared with its own only; the
// machine parameter keeps one machine's.
func TestCalibrationProbes(t *testing.T) {
	ctx := context.Background()
	st, err := store.Open(filepath.Join(t.TempDir(), "p.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	const f = 3.3e6 // multiply-adds per run
	save := func(name, machine string, cs ...float64) {
		var rows []calibration.Row
		for i, c := range cs {
			rows = append(rows, calibration.Row{Block: calibration.ProbeBlock, F: f, Seconds: c * f, Machine: machine, Rep: i, Copies: 1, CPU: -1},
				calibration.Row{Block: "tile", Alpha: []float64{64}, F: 1, Seconds: 1e-3, Machine: machine, Rep: i, Copies: 1, CPU: -1})
		}
		info := store.CalibrationInfo{Name: name, Path: name + ".csv", SHA256: name}
		if _, err := st.SaveCalibration(ctx, info, rows, calibration.Analyze(rows, calibration.DefaultThresholds)); err != nil {
			t.Fatal(err)
		}
	}
	save("quiet", "m", 3.5e-10, 3.3e-10, 3.4e-10, 3.6e-10, 3.2e-10)
	save("busy", "m", 8.4e-10, 8.6e-10, 8.0e-10, 9.0e-10)
	save("other", "n", 5e-10, 5e-10, 5e-10)
	rows := rowsOf(t, "calibration_probes", func(q queries.Query) ([]map[string]any, error) { return query(ctx, st, q, nil) })
	want := []struct {
		name, machine string
		runs          int64
		median, min   float64
		slower        float64
	}{
		{"quiet", "m", 5, 3.4e-10, 3.2e-10, 0},
		{"busy", "m", 4, 8.5e-10, 8.0e-10, 8.5/3.4 - 1},
		{"other", "n", 3, 5e-10, 5e-10, 0},
	}
	if len(rows) != len(want) {
		t.Fatalf("%d rows, want %d: %v", len(rows), len(want), rows)
	}
	for i, w := range want {
		r := rows[i]
		if r["name"] != w.name || r["machine"] != w.machine || r["runs"] != w.runs ||
			!approx(num(r["c_median"]), w.median) || !approx(num(r["c_min"]), w.min) || math.Abs(num(r["slower_than_fastest"])-w.slower) > 1e-9 {
			t.Errorf("row %d: %v, want %+v", i, r, w)
		}
	}
	one := rowsOf(t, "calibration_probes", func(q queries.Query) ([]map[string]any, error) {
		return query(ctx, st, q, map[string]any{"machine": "n"})
	})
	if len(one) != 1 || one[0]["name"] != "other" {
		t.Errorf("machine n: %v, want the calibration other alone", one)
	}
}
