package schema

import (
	"reflect"
	"testing"
)

// procRow is a row of interval_proc_values, a table before schema 8 and a
// view of interval_proc_series since.
type procRow struct {
	Run   int64   `db:"run_id"`
	Iv    int64   `db:"interval_id"`
	Proc  int64   `db:"proc"`
	Char  int64   `db:"char_id"`
	Value float64 `db:"value"`
	Type  string  `db:"t"`
}

// TestMigrateProcValues migrates a store of version 7 holding
// per-processor rows with gaps (processors without a value, the highest
// processor differing between characteristics): the view gives back the
// same rows, values exact and typed REAL, and v_values_long still lists
// them.
func TestMigrateProcValues(t *testing.T) {
	old := storeOfVersion(t, 7)
	old.MustExec(`INSERT OR IGNORE INTO characteristics(id, name, unit, family, description)
		VALUES (1, 'c1', 's', 'f', ''), (2, 'c2', 's', 'f', '')`)
	old.MustExec(`INSERT INTO traces(id, name, path, sha256, bytes, calls, proc_count, header, root_line, root_file, ingested_at)
		VALUES (1, 't', 't.ptr', 'abc', 1, 0, 1, '', 1, 'f', 'now')`)
	old.MustExec(`INSERT INTO runs(id, kind, trace_id, program, grid, grid_rank, grid_d1, procs, report_root, execution_time, created_at)
		VALUES (3, 'predicted', 1, 't', '4', 1, 4, 4, 1, 0.5, 'now')`)
	old.MustExec(`INSERT INTO intervals(run_id, id, parent, ord, level, type, file, line, count) VALUES (3, 1, NULL, 0, 0, 'Main', 'f', 1, 1)`)
	values := []procRow{
		{3, 1, 0, 1, 0.1, "real"}, {3, 1, 3, 1, 1e-300, "real"}, {3, 1, 2, 1, 7, "real"},
		{3, 1, 1, 2, 0.30000000000000004, "real"},
	}
	for _, v := range values {
		old.MustExec(`INSERT INTO interval_proc_values(run_id, interval_id, proc, char_id, value) VALUES (?, ?, ?, ?, ?)`,
			v.Run, v.Iv, v.Proc, v.Char, v.Value)
	}
	query := `SELECT run_id, interval_id, proc, char_id, value, typeof(value) AS t FROM interval_proc_values ORDER BY run_id, interval_id, proc, char_id`
	var before, after []procRow
	if err := old.Select(&before, query); err != nil {
		t.Fatal(err)
	}
	if err := Migrate(old, testSteps...); err != nil {
		t.Fatal(err)
	}
	if err := old.Select(&after, query); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(after, before) || len(after) != len(values) {
		t.Errorf("after migrating: %+v\nwant %+v", after, before)
	}
	var series int
	if err := old.Get(&series, `SELECT count(*) FROM interval_proc_series`); err != nil || series != 2 {
		t.Errorf("%d series rows (%v), want 2: one per run, interval and characteristic", series, err)
	}
	var long int
	if err := old.Get(&long, `SELECT count(*) FROM v_values_long WHERE proc IS NOT NULL`); err != nil || long != len(values) {
		t.Errorf("v_values_long: %d per-processor rows (%v), want %d", long, err, len(values))
	}
}
