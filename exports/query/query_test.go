package query

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jmoiron/sqlx"

	"github.com/presage-dvm/presage/exports/fixture"
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
		err := CheckReadOnly(c.sql)
		if (err == nil) != c.ok {
			t.Errorf("CheckReadOnly(%q) = %v, want ok=%v", c.sql, err, c.ok)
		}
	}
}

// storeState summarizes a store so that any change shows.
func storeState(t *testing.T, db *sqlx.DB) string {
	t.Helper()
	var s struct {
		Runs, Values, Objects int64
		Programs              string
		Sum                   float64
	}
	err := db.QueryRow(`SELECT (SELECT count(*) FROM runs), (SELECT count(*) FROM interval_values),
		(SELECT count(*) FROM sqlite_master), (SELECT group_concat(program) FROM runs),
		(SELECT total(value) FROM interval_values)`).Scan(&s.Runs, &s.Values, &s.Objects, &s.Programs, &s.Sum)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(s)
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

// TestRejectsWrites tries writes through Run on a store opened read-only
// and on one opened for writing: every attempt fails and the store is
// unchanged.
func TestRejectsWrites(t *testing.T) {
	wdb, path, _ := fixture.NewStore(t, fixture.Small)
	before := storeState(t, wdb)
	rdb, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer rdb.Close()
	for name, db := range map[string]*sqlx.DB{"read-only": rdb, "writable": wdb} {
		for _, q := range attempts {
			var out bytes.Buffer
			if err := Run(context.Background(), db, q, nil, "table", &out); err == nil {
				t.Errorf("%s store: %q succeeded", name, q)
			}
		}
	}
	if after := storeState(t, wdb); after != before {
		t.Errorf("store changed:\nbefore %s\nafter  %s", before, after)
	}
	if m, _ := filepath.Glob(filepath.Join(filepath.Dir(path), "other.db")); len(m) != 0 {
		t.Errorf("ATTACH created %v", m)
	}
}

// TestQueryOnlyConnection bypasses the statement check: the connection's
// query_only still refuses writes, and a writable pool gets its
// connections back writable.
func TestQueryOnlyConnection(t *testing.T) {
	db, _, _ := fixture.NewStore(t, fixture.Small)
	before := storeState(t, db)
	for _, q := range []string{"DELETE FROM interval_values", "WITH x AS (SELECT 1) UPDATE runs SET program = 'x'"} {
		if err := run(context.Background(), db, q, nil, "csv", &bytes.Buffer{}); err == nil {
			t.Errorf("%q succeeded on a query_only connection", q)
		} else if !strings.Contains(err.Error(), "readonly") {
			t.Errorf("%q: error %v, want the query_only refusal", q, err)
		}
	}
	if after := storeState(t, db); after != before {
		t.Errorf("store changed:\nbefore %s\nafter  %s", before, after)
	}
	db.SetMaxOpenConns(1) // the next statement gets the connection run used
	if _, err := db.Exec(`UPDATE runs SET options = 'x' WHERE id = 1`); err != nil {
		t.Errorf("writable store not writable after a query: %v", err)
	}
}

func TestFormats(t *testing.T) {
	db, _, built := fixture.NewStore(t, fixture.Small)
	ctx := context.Background()
	q := `SELECT run_id, program, machine, tstart, execution_time FROM v_runs WHERE run_id <= :n ORDER BY run_id`
	args := map[string]any{"n": 2}

	var js bytes.Buffer
	if err := Run(ctx, db, q, args, "json", &js); err != nil {
		t.Fatal(err)
	}
	var objs []map[string]any
	if err := json.Unmarshal(js.Bytes(), &objs); err != nil {
		t.Fatalf("json output %s: %v", js.String(), err)
	}
	if len(objs) != 2 || objs[0]["run_id"] != 1.0 || objs[0]["tstart"] != nil || objs[1]["tstart"] == nil ||
		objs[0]["execution_time"] != built.Runs[0].Intervals[0].Values[1] {
		t.Errorf("json: %v", objs)
	}
	if i, j := strings.Index(js.String(), `"run_id"`), strings.Index(js.String(), `"program"`); i < 0 || j < i {
		t.Errorf("json keys out of column order: %s", js.String())
	}

	var cs bytes.Buffer
	if err := Run(ctx, db, q, args, "csv", &cs); err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(&cs).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 3 || strings.Join(recs[0], ",") != "run_id,program,machine,tstart,execution_time" || recs[1][3] != "" || recs[2][3] == "" {
		t.Errorf("csv: %v", recs)
	}

	var tb bytes.Buffer
	if err := Run(ctx, db, q, args, "table", &tb); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimRight(tb.String(), "\n"), "\n")
	if len(lines) != 3 || !strings.Contains(lines[1], "NULL") || len(lines[0]) != len(lines[1]) {
		t.Errorf("table:\n%s", tb.String())
	}

	if err := Run(ctx, db, q, args, "xml", &tb); err == nil {
		t.Error("format xml: no error")
	}
}

func TestNamed(t *testing.T) {
	db, path, built := fixture.NewStore(t, fixture.Small)
	rdb, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer rdb.Close()
	var out bytes.Buffer
	err = Named(context.Background(), rdb, "compare_runs",
		map[string]any{"run_a": "1", "run_b": "2"}, "csv", &out)
	if err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(&out).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 1+len(built.Runs[0].Intervals) {
		t.Errorf("compare_runs: %d lines, want header + %d", len(recs), len(built.Runs[0].Intervals))
	}
	err = Named(context.Background(), db, "compare_runs", map[string]any{"run_a": "1"}, "csv", &out)
	if err == nil || errors.Is(err, ErrNotReadOnly) {
		t.Errorf("missing run_b: error %v", err)
	}
}
