package store_test

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/presage-dvm/presage/internal/fixture"
	"github.com/presage-dvm/presage/schema/store"
)

func TestCheckReadOnly(t *testing.T) {
	for _, c := range []struct {
		sql string
		ok  bool
	}{
		{"SELECT 1", true},
		{"  select * from runs;  -- done\n", true},
		{"WITH x AS (SELECT 1) SELECT * FROM x", true},
		{"SELECT replace(program, 'a', 'b') FROM runs", true},
		{"SELECT 'DELETE FROM runs; DROP TABLE runs' AS s", true},
		{`SELECT "update" FROM (SELECT 1 AS "update")`, true},
		{"/* DROP */ SELECT 1", true},
		{"UPDATE runs SET program = 'x'", false},
		{"DELETE FROM runs", false},
		{"DROP TABLE runs", false},
		{"ATTACH DATABASE '/tmp/x.db' AS x", false},
		{"PRAGMA query_only = 0", false},
		{"PRAGMA writable_schema = 1", false},
		{"INSERT INTO sweeps VALUES (1, 1, 'x', 'y')", false},
		{"WITH x AS (SELECT 1) DELETE FROM runs", false},
		{"WITH x AS (SELECT 1) REPLACE INTO sweeps SELECT * FROM sweeps", false},
		{"SELECT 1; DELETE FROM runs", false},
		{"SELECT 1; SELECT 2", false},
		{"VACUUM", false},
		{"-- only a comment", false},
		{"SELECT 'unterminated", false},
	} {
		err := store.CheckReadOnly(c.sql)
		if (err == nil) != c.ok {
			t.Errorf("CheckReadOnly(%q) = %v, want ok=%v", c.sql, err, c.ok)
		}
	}
}

// storeState summarizes a store so that any change shows.
func storeState(t *testing.T, st *store.Store) string {
	t.Helper()
	rows, err := st.ViewRows(`SELECT (SELECT count(*) FROM runs), (SELECT count(*) FROM interval_values),
		(SELECT count(*) FROM sqlite_master), (SELECT group_concat(program) FROM runs),
		(SELECT total(value) FROM interval_values)`)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(rows)
	return string(b)
}

var attempts = []string{
	"UPDATE runs SET program = 'changed'",
	"DELETE FROM interval_values",
	"DROP TABLE runs",
	"DROP VIEW v_runs",
	"ATTACH DATABASE 'other.db' AS other",
	"PRAGMA query_only = 0",
	"PRAGMA writable_schema = ON",
	"WITH x AS (SELECT 1) DELETE FROM runs",
	"SELECT 1; DELETE FROM runs",
	"CREATE TABLE t(x)",
}

func discard([]string) error { return nil }
func ignore([]any) error     { return nil }

// TestQueryRejectsWrites tries writes through Query on a store opened
// read-only and on one opened for writing: every attempt fails and the
// store is unchanged.
func TestQueryRejectsWrites(t *testing.T) {
	wst, path, _ := fixture.NewStore(t, fixture.Small)
	before := storeState(t, wst)
	rst, err := store.OpenReadOnly(path)
	if err != nil {
		t.Fatal(err)
	}
	defer rst.Close()
	for name, st := range map[string]*store.Store{"read-only": rst, "writable": wst} {
		for _, q := range attempts {
			if err := st.Query(context.Background(), q, nil, discard, ignore); err == nil {
				t.Errorf("%s store: %q succeeded", name, q)
			}
		}
	}
	if after := storeState(t, wst); after != before {
		t.Errorf("store changed:\nbefore %s\nafter  %s", before, after)
	}
	if m, _ := filepath.Glob(filepath.Join(filepath.Dir(path), "other.db")); len(m) != 0 {
		t.Errorf("ATTACH created %v", m)
	}
}

func TestQueryParams(t *testing.T) {
	st, _, built := fixture.NewStore(t, fixture.Small)
	var cols []string
	var ids []any
	err := st.Query(context.Background(), `SELECT run_id, program FROM v_runs WHERE run_id <= :n ORDER BY run_id`,
		map[string]any{"n": 2}, func(c []string) error { cols = c; return nil },
		func(v []any) error { ids = append(ids, v[0]); return nil })
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(cols, ",") != "run_id,program" || len(ids) != 2 || ids[0] != built.Runs[0].ID || ids[1] != built.Runs[1].ID {
		t.Errorf("columns %v, ids %v; want run_id,program and the first two runs", cols, ids)
	}
}

func TestList(t *testing.T) {
	st, _, built := fixture.NewStore(t, fixture.Small)
	for _, what := range store.Listings() {
		var rows int
		total, err := st.List(context.Background(), what, 0, discard, func([]any) error { rows++; return nil })
		if err != nil {
			t.Fatalf("list %s: %v", what, err)
		}
		want := map[string]int{"traces": 1, "runs": len(built.Runs), "sweeps": len(built.Sweeps)}[what]
		if rows != want || total != want {
			t.Errorf("list %s: %d rows of %d, want %d", what, rows, total, want)
		}
	}
	// A limit keeps the latest rows, in id order.
	var ids []int64
	total, err := st.List(context.Background(), "runs", 2, discard, func(vals []any) error { ids = append(ids, vals[0].(int64)); return nil })
	n := len(built.Runs)
	if err != nil || total != n || len(ids) != 2 || ids[0] != built.Runs[n-2].ID || ids[1] != built.Runs[n-1].ID {
		t.Errorf("the latest 2 runs: %v of %d (%v); want the ids of the last two of %d", ids, total, err, n)
	}
	if _, err := st.List(context.Background(), "nope", 0, discard, ignore); err == nil || !strings.Contains(err.Error(), "runs") {
		t.Errorf("list nope: error %v, want one naming the listings", err)
	}
}

// FuzzCheckReadOnly: the check never panics, and a statement it accepts
// followed by a second statement is refused (an accepted text has no
// unterminated literal or comment to hide the second one in).
func FuzzCheckReadOnly(f *testing.F) {
	for _, s := range []string{"SELECT 1", "WITH x AS (SELECT 1) SELECT * FROM x;", "SELECT 'a;b' -- c", "/* x */ VALUES (1)", `SELECT "a""b"`, "SELECT [x]"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if store.CheckReadOnly(s) != nil {
			return
		}
		if err := store.CheckReadOnly(s + "\n; DELETE FROM runs"); err == nil {
			t.Errorf("accepted %q followed by a DELETE", s)
		}
	})
}
