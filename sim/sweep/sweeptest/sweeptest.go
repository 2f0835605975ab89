// Package sweeptest helps the tests of sweeps, searches and merges: stores
// with real inputs ingested, and a fingerprint of a sweep's stored rows
// that is independent of run ids and creation times.
package sweeptest

import (
	"context"
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/jmoiron/sqlx"

	"github.com/presage-dvm/presage/ingest/machinedb"
	"github.com/presage-dvm/presage/ingest/tracedb"
	"github.com/presage-dvm/presage/schema"
)

// Store creates a store in a temporary directory with the given trace and
// machine files ingested (absolute paths).
func Store(t testing.TB, name string, traces, machines []string) (*sqlx.DB, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	db, err := schema.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	for _, f := range traces {
		if _, err := tracedb.Ingest(context.Background(), db, f, nil); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range machines {
		if _, err := machinedb.Ingest(context.Background(), db, f); err != nil {
			t.Fatal(err)
		}
	}
	return db, path
}

// runTables are the tables holding a run's rows, keyed by run_id.
var runTables = []string{"intervals", "interval_values", "interval_proc_values", "interval_stats", "run_warnings"}

// Fingerprint returns every stored row of the sweep with the given
// definition hash, as sorted text lines in which the run is named by its
// position in the sweep (never its id). Two stores hold the same sweep
// results exactly when their fingerprints are equal.
func Fingerprint(t testing.TB, db *sqlx.DB, defHash string) []string {
	t.Helper()
	var lines []string
	add := func(q string, args ...any) {
		rows, err := db.Queryx(q, args...)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		for rows.Next() {
			vals, err := rows.SliceScan()
			if err != nil {
				t.Fatal(err)
			}
			parts := make([]string, len(vals))
			for i, v := range vals {
				if b, ok := v.([]byte); ok {
					v = string(b)
				}
				parts[i] = fmt.Sprint(v)
			}
			lines = append(lines, strings.Join(parts, "|"))
		}
		if err := rows.Err(); err != nil {
			t.Fatal(err)
		}
	}
	add(`SELECT 'sweep', s.kind, s.definition, s.configs, s.skipped, t.sha256 FROM sweeps s JOIN traces t ON t.id = s.trace_id WHERE s.def_hash = ?`, defHash)
	add(`SELECT 'run', r.sweep_index, r.kind, r.program, r.machine, m.sha256, r.grid, r.procs, r.network, r.tstart, r.tbyte, r.power,
		r.options, r.report_root, r.execution_time, r.warnings
		FROM runs r JOIN sweeps s ON s.id = r.sweep_id LEFT JOIN machines m ON m.id = r.machine_id WHERE s.def_hash = ?`, defHash)
	for _, tbl := range runTables {
		cols := columns(t, db, tbl)
		add(fmt.Sprintf(`SELECT '%s', r.sweep_index, %s FROM %s x JOIN runs r ON r.id = x.run_id JOIN sweeps s ON s.id = r.sweep_id WHERE s.def_hash = ?`,
			tbl, strings.Join(cols, ", "), tbl), defHash)
	}
	sort.Strings(lines)
	return lines
}

// columns lists the table's columns other than run_id, qualified by x.
func columns(t testing.TB, db *sqlx.DB, table string) []string {
	var names []string
	if err := db.Select(&names, `SELECT name FROM pragma_table_info(?) ORDER BY cid`, table); err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, n := range names {
		if n != "run_id" {
			out = append(out, "x."+n)
		}
	}
	return out
}

// Diff describes the first difference of two fingerprints, or "".
func Diff(a, b []string) string {
	for i := 0; i < len(a) && i < len(b); i++ {
		if a[i] != b[i] {
			return fmt.Sprintf("line %d: %q != %q", i, a[i], b[i])
		}
	}
	if len(a) != len(b) {
		return fmt.Sprintf("%d lines != %d lines", len(a), len(b))
	}
	return ""
}
