package schema

import "testing"

// TestMigrateTraceHashes migrates a store of version 10: its traces keep
// their SHA-256 and have no XXH3 yet, the rows that refer to them stay,
// and the foreign keys hold.
func TestMigrateTraceHashes(t *testing.T) {
	db := storeOfVersion(t, 10)
	db.MustExec(`INSERT INTO traces(id, name, path, sha256, bytes, calls, proc_count, header, root_line, root_file, ingested_at)
		VALUES (4, 't', 't.ptr', 'abc', 1, 2, 1, 'h', 1, 'f', 'now')`)
	db.MustExec(`INSERT INTO trace_packs(trace_id, chunk, calls, data) VALUES (4, 0, 2, x'00')`)
	db.MustExec(`INSERT INTO runs(id, kind, trace_id, program, grid, grid_rank, grid_d1, procs, report_root, execution_time, created_at)
		VALUES (3, 'predicted', 4, 't', '4', 1, 4, 4, 1, 0.5, 'now')`)
	if err := Migrate(db, testSteps...); err != nil {
		t.Fatal(err)
	}
	var row struct {
		SHA256 *string `db:"sha256"`
		XXH3   *string `db:"xxh3"`
		Header string  `db:"header"`
	}
	if err := db.Get(&row, `SELECT sha256, xxh3, header FROM traces WHERE id = 4`); err != nil {
		t.Fatal(err)
	}
	if row.SHA256 == nil || *row.SHA256 != "abc" || row.XXH3 != nil || row.Header != "h" {
		t.Errorf("migrated trace: sha256 %v, xxh3 %v, header %q", row.SHA256, row.XXH3, row.Header)
	}
	var packs, runs, violations int
	for dest, q := range map[*int]string{
		&packs:      `SELECT count(*) FROM trace_packs WHERE trace_id = 4`,
		&runs:       `SELECT count(*) FROM runs WHERE trace_id = 4`,
		&violations: `SELECT count(*) FROM pragma_foreign_key_check`,
	} {
		if err := db.Get(dest, q); err != nil {
			t.Fatal(err)
		}
	}
	if packs != 1 || runs != 1 || violations != 0 {
		t.Errorf("after migrating: %d packs, %d runs of the trace (want 1, 1), %d foreign key violations", packs, runs, violations)
	}
	if _, err := db.Exec(`INSERT INTO traces(name, path, bytes, calls, proc_count, header, root_line, root_file, ingested_at)
		VALUES ('n', 'n', 1, 0, 1, '', 1, 'f', 'now')`); err == nil {
		t.Error("a trace without a hash was accepted")
	}
	if _, err := db.Exec(`INSERT INTO traces(name, path, xxh3, bytes, calls, proc_count, header, root_line, root_file, ingested_at)
		VALUES ('n', 'n', 'abc', 1, 0, 1, '', 1, 'f', 'now'), ('m', 'm', 'abc', 1, 0, 1, '', 1, 'f', 'now')`); err == nil {
		t.Error("two traces with one XXH3 were accepted")
	}
}
