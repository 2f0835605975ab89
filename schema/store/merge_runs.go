package store

import (
	"fmt"
	"strings"

	"github.com/jmoiron/sqlx"
)

// A run outside a sweep (a single prediction, a measured run, an orders
// simulation) is recognised by its content: every column of its runs row
// but the id and the creation time — with the inputs it refers to
// renumbered to the destination's, which keeps them once per content hash
// — and, for an orders simulation, its order_runs row. Merging anything
// twice then adds nothing. Runs of a sweep are recognised by their
// position in it instead (merger.existing).

// runKeys maps the content key of every run outside a sweep in the
// destination (and of those a merge adds) to its id.
type runKeys map[string]int64

// runKeyColumns are the columns of runs that make a run's content key.
func runKeyColumns(cols []string) []string {
	var out []string
	for _, c := range cols {
		if c != "id" && c != "created_at" {
			out = append(out, c)
		}
	}
	return out
}

// orderRunKeyColumns are the columns of order_runs in a key, joined to
// the run (NULL for a run that is not an orders simulation): the trace is
// the run's own order_trace_id already.
var orderRunKeyColumns = prefixed("o.", []string{"scheduler", "migrate", "nodes", "cores", "latency", "bandwidth", "messages",
	"hub", "relay", "order_cost", "wait_cost", "ahead", "ahead_max", "power", "makespan", "work", "span", "burdened_span", "parallelism", "speedup", "speedup_lo", "speedup_hi"})

// runKey joins a run's key columns and its order_runs values into one
// string.
func runKey(vals []any, orderRun []any) string {
	var b strings.Builder
	for _, v := range append(vals, orderRun...) {
		fmt.Fprintf(&b, "%T:%v|", v, v)
	}
	return b.String()
}

// loadRunKeys reads the keys of the destination's runs outside sweeps, in
// one pass over the runs joined to their order_runs rows.
func loadRunKeys(tx *sqlx.Tx, cols []string) (runKeys, error) {
	keyCols := runKeyColumns(cols)
	rows, err := tx.Queryx(fmt.Sprintf(`SELECT r.id, %s, %s FROM runs r LEFT JOIN order_runs o ON o.run_id = r.id
		WHERE r.sweep_id IS NULL`, prefixed("r.", keyCols), orderRunKeyColumns))
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	keys := runKeys{}
	for rows.Next() {
		vals, err := rows.SliceScan()
		if err != nil {
			return nil, err
		}
		keys[runKey(vals[1:1+len(keyCols)], vals[1+len(keyCols):])] = vals[0].(int64)
	}
	return keys, rows.Err()
}

// orderRunValues returns the order_runs key values of run id in db, NULLs
// when the run has no such row.
func orderRunValues(db sqlx.Queryer, id int64) ([]any, error) {
	rows, err := db.Queryx(`SELECT `+orderRunKeyColumns+` FROM runs r LEFT JOIN order_runs o ON o.run_id = r.id WHERE r.id = ?`, id)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	if !rows.Next() {
		return nil, rows.Err()
	}
	return rows.SliceScan()
}

func prefixed(prefix string, cols []string) string {
	out := make([]string, len(cols))
	for i, c := range cols {
		out[i] = prefix + c
	}
	return strings.Join(out, ", ")
}

// sameRun finds the destination's run with the content of the source row
// vals (already renumbered), whose source id is old.
func (m *merger) sameRun(at map[string]int, cols []string, vals []any, old int64) (key string, id int64, found bool, err error) {
	if *m.keys == nil {
		if *m.keys, err = loadRunKeys(m.tx, cols); err != nil {
			return "", 0, false, err
		}
	}
	keyCols := runKeyColumns(cols)
	kv := make([]any, len(keyCols))
	for i, c := range keyCols {
		kv[i] = vals[at[c]]
	}
	or, err := orderRunValues(m.src, old)
	if err != nil {
		return "", 0, false, err
	}
	key = runKey(kv, or)
	id, found = (*m.keys)[key]
	return key, id, found, nil
}
