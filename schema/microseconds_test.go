package schema

import "testing"

// TestMigrateToMicroseconds: schema 17 turns the stored seconds of the
// start-up times and times per byte into the microseconds the flags
// speak, exactly (10, not 10.000000000000002), and the intervals of
// stored runs get their paths (schema 16).
func TestMigrateToMicroseconds(t *testing.T) {
	db := storeOfVersion(t, 15)
	db.MustExec(`INSERT INTO runs(id, kind, program, grid, grid_rank, grid_d1, procs, tstart, tbyte, tstart_used, tbyte_used,
		report_root, execution_time, created_at) VALUES (1, 'predicted', 'jac', '2x2', 2, 2, 4, 1e-05, 4e-09, 3e-05, 6.25e-09, 1, 0.5, '')`)
	db.MustExec(`INSERT INTO intervals(run_id, id, parent, ord, level, type, file, line, count) VALUES
		(1, 1, NULL, 0, 0, 'Main', '', 0, 1), (1, 2, 1, 1, 1, 'Seq', 'jac.fdv', 8, 1), (1, 3, 2, 2, 2, 'Par', 'jac.fdv', 10, 4)`)
	if err := Migrate(db, testSteps...); err != nil {
		t.Fatal(err)
	}
	var n int
	if err := db.Get(&n, `SELECT count(*) FROM v_runs WHERE tstart_us = 10 AND tbyte_us = 0.004 AND tstart_used_us = 30 AND tbyte_used_us = 0.00625`); err != nil || n != 1 {
		t.Errorf("%d runs with tstart_us = 10 and the rest in microseconds (%v)", n, err)
	}
	var path string
	if err := db.Get(&path, `SELECT path FROM v_intervals WHERE run_id = 1 AND interval_id = 3`); err != nil || path != "Main->Seq@jac.fdv:8->Par@jac.fdv:10" {
		t.Errorf("path %q (%v)", path, err)
	}
}
