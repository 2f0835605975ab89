package schema

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/presage-dvm/presage/schema/stored"
	"github.com/presage-dvm/presage/sim/result"
)

// TestStaleWideViewRecreated: a store whose v_intervals_wide was made from
// an older (shorter) list of characteristics gets the current view when
// it is opened, without a new numbered migration.
func TestStaleWideViewRecreated(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.db")
	db, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	stale := strings.Replace(WideViewSQL(), `,
       (SELECT v.value FROM interval_values v WHERE v.run_id = i.run_id AND v.interval_id = i.id AND v.char_id = 1) AS "Execution_time"`, "", 1)
	if stale == WideViewSQL() {
		t.Fatal("test setup: could not drop a column from the generated view")
	}
	db.MustExec(`DROP VIEW v_intervals_wide`)
	db.MustExec(stale)
	db.Close()

	db, err = Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	rows, err := db.Queryx(`SELECT * FROM v_intervals_wide LIMIT 0`)
	if err != nil {
		t.Fatal(err)
	}
	cols, err := rows.Columns()
	rows.Close()
	if err != nil {
		t.Fatal(err)
	}
	chars := cols[len(cols)-int(result.NumChars):]
	for i, c := range stored.WideCharColumns() {
		if chars[i] != c.Name {
			t.Fatalf("column %d of the reopened view is %q, want %q (columns %v)", i, chars[i], c.Name, cols)
		}
	}
}

// TestWideViewUpToDate: a new store's view is the generated one, and a
// second open finds nothing to recreate.
func TestWideViewUpToDate(t *testing.T) {
	db, err := Open(filepath.Join(t.TempDir(), "s.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var stored string
	if err := db.Get(&stored, `SELECT sql FROM sqlite_master WHERE name = 'v_intervals_wide'`); err != nil {
		t.Fatal(err)
	}
	if normalizeSQL(stored) != normalizeSQL(WideViewSQL()) {
		t.Errorf("stored view differs from the generated one:\n%s", stored)
	}
}

// TestMigrateStoreOfVersion5: a store with a sweep and its run, made at
// version 5 (before sweeps could name an order trace), migrates: the
// rebuilt sweeps table keeps its rows and the run still refers to it.
func TestMigrateStoreOfVersion5(t *testing.T) {
	old := storeOfVersion(t, 5)
	old.MustExec(`INSERT INTO traces(id, name, path, sha256, bytes, calls, proc_count, header, root_line, root_file, ingested_at)
		VALUES (1, 't', 't.ptr', 'abc', 1, 0, 1, '', 1, 'f', 'now')`)
	old.MustExec(`INSERT INTO sweeps(id, trace_id, command, created_at, def_hash) VALUES (7, 1, 'presage sweep', 'now', 'h')`)
	old.MustExec(`INSERT INTO runs(id, kind, trace_id, sweep_id, program, grid, grid_rank, grid_d1, procs, report_root, execution_time, created_at, sweep_index)
		VALUES (3, 'predicted', 1, 7, 't', '2', 1, 2, 2, 1, 0.5, 'now', 0)`)
	if err := Migrate(old, testSteps...); err != nil {
		t.Fatal(err)
	}
	var got struct {
		Sweep int64  `db:"sweep_id"`
		Hash  string `db:"def_hash"`
		Eng   string `db:"engine"`
	}
	if err := old.Get(&got, `SELECT r.sweep_id, s.def_hash, r.engine FROM runs r JOIN sweeps s ON s.id = r.sweep_id`); err != nil {
		t.Fatal(err)
	}
	if got.Sweep != 7 || got.Hash != "h" || got.Eng != "dvm" {
		t.Errorf("after migrating: %+v, want sweep 7 with hash h, engine dvm", got)
	}
	var fk []struct{}
	if err := old.Select(&fk, `SELECT 1 FROM pragma_foreign_key_check`); err != nil || len(fk) != 0 {
		t.Errorf("foreign key check: %d violations (%v)", len(fk), err)
	}
}
