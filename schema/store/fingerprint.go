package store

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"
)

// runTables are the tables holding a run's rows, keyed by run_id.
var runTables = []string{"intervals", "interval_values", "interval_proc_values", "interval_stats", "run_warnings",
	"order_runs", "order_nodes", "order_events", "order_critical_path", "order_stretches", "order_procs"}

// SweepFingerprint returns every stored row of the sweep with the given
// definition hash, as sorted text lines in which the run is named by its
// position in the sweep (never its id) and inputs by their content hash.
// Two stores hold the same sweep results exactly when their fingerprints
// are equal: merges of shards are checked against unsharded sweeps this way.
func (s *Store) SweepFingerprint(ctx context.Context, defHash string) ([]string, error) {
	var lines []string
	add := func(q string, args ...any) error {
		rows, err := s.db.QueryxContext(ctx, q, args...)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			vals, err := rows.SliceScan()
			if err != nil {
				return err
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
		return rows.Err()
	}
	if err := add(`SELECT 'sweep', s.kind, s.definition, s.configs, s.skipped, coalesce(t.xxh3, t.sha256, o.sha256)
		FROM sweeps s LEFT JOIN traces t ON t.id = s.trace_id LEFT JOIN order_traces o ON o.id = s.order_trace_id
		WHERE s.def_hash = ?`, defHash); err != nil {
		return nil, err
	}
	if err := add(`SELECT 'run', r.sweep_index, r.kind, r.program, r.machine, m.sha256, r.grid, r.procs, r.network, r.tstart_us, r.tbyte_us, r.power,
		r.options, r.report_root, r.execution_time, r.warnings
		FROM runs r JOIN sweeps s ON s.id = r.sweep_id LEFT JOIN machines m ON m.id = r.machine_id WHERE s.def_hash = ?`, defHash); err != nil {
		return nil, err
	}
	for _, tbl := range runTables {
		// Columns holding store ids (run_id, trace_id) differ between
		// stores holding the same results.
		cols, err := s.columnsBut(ctx, tbl, "run_id", "trace_id")
		if err != nil {
			return nil, err
		}
		for i, c := range cols {
			cols[i] = "x." + c
		}
		if err := add(fmt.Sprintf(`SELECT '%s', r.sweep_index, %s FROM %s x JOIN runs r ON r.id = x.run_id
			JOIN sweeps s ON s.id = r.sweep_id WHERE s.def_hash = ?`, tbl, strings.Join(cols, ", "), tbl), defHash); err != nil {
			return nil, err
		}
	}
	sort.Strings(lines)
	return lines, nil
}

// columnsBut lists the table's columns in order, leaving out skip.
func (s *Store) columnsBut(ctx context.Context, table string, skip ...string) ([]string, error) {
	var names []string
	if err := s.db.SelectContext(ctx, &names, `SELECT name FROM pragma_table_info(?) ORDER BY cid`, table); err != nil {
		return nil, err
	}
	out := names[:0]
	for _, n := range names {
		if !slices.Contains(skip, n) {
			out = append(out, n)
		}
	}
	return out, nil
}
