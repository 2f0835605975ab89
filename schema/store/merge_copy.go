package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"

	"github.com/jmoiron/sqlx"
)

// merger copies one source store into the destination transaction.
type merger struct {
	ctx  context.Context
	src  *sqlx.DB
	tx   *sqlx.Tx
	path string
	sum  *MergeSummary
	// ids[table][source id] = destination id, for every row copied or
	// reused; fresh[table][source id] is set for rows copied.
	ids   map[string]map[int64]int64
	fresh map[string]map[int64]bool
	// keys are the content keys of the runs outside sweeps, shared by
	// the sources of one merge (merge_runs.go); newKey is the key of the
	// run being copied.
	keys   *runKeys
	cols   []string // of the table being copied
	newKey string
}

func (m *merger) run() error {
	for _, t := range mergeTables {
		m.ids[t.name] = map[int64]int64{}
		m.fresh[t.name] = map[int64]bool{}
		if err := m.copyTable(t); err != nil {
			return fmt.Errorf("table %s: %w", t.name, err)
		}
	}
	return nil
}

// columns lists the table's columns in the destination (the source has
// the same schema version, hence the same columns).
func (m *merger) columns(name string) ([]string, error) { return tableColumns(m.tx, name) }

func (m *merger) copyTable(t mergeTable) error {
	cols, err := m.columns(t.name)
	if err != nil {
		return err
	}
	m.cols = cols
	insCols := cols
	if t.ids {
		insCols = withoutColumn(cols, "id")
	}
	ins, err := m.tx.Preparex(fmt.Sprintf(`INSERT INTO %s(%s) VALUES (%s)`, t.name,
		strings.Join(insCols, ", "), strings.TrimSuffix(strings.Repeat("?,", len(insCols)), ",")))
	if err != nil {
		return err
	}
	defer ins.Close()
	order := ""
	if t.ids {
		order = " ORDER BY id"
	}
	rows, err := m.src.QueryContext(m.ctx, fmt.Sprintf(`SELECT %s FROM %s%s`, strings.Join(cols, ", "), t.name, order))
	if err != nil {
		return err
	}
	defer rows.Close()
	vals := make([]any, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	at := columnIndex(cols)
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			return err
		}
		keep, err := m.remap(t, at, vals)
		if err != nil {
			return err
		}
		if !keep { // the row belongs to something the destination has already
			continue
		}
		if err := m.copyRow(t, at, vals, ins, insCols); err != nil {
			return err
		}
	}
	return rows.Err()
}

// remap replaces the references of a row by destination ids; keep is false
// for a row whose parent was reused or left out.
func (m *merger) remap(t mergeTable, at map[string]int, vals []any) (keep bool, err error) {
	for col, ref := range t.refs {
		old, ok := vals[at[col]].(int64)
		if !ok {
			continue // NULL
		}
		if col == t.parent && !m.fresh[ref][old] {
			return false, nil
		}
		id, ok := m.ids[ref][old]
		if !ok {
			if t.name == "runs" && ref == "sweeps" {
				return false, fmt.Errorf("run %v: sweep %d is not stored", vals[at["id"]], old)
			}
			return false, fmt.Errorf("row refers to %s %d, which the store lacks", ref, old)
		}
		vals[at[col]] = id
	}
	return true, nil
}

// copyRow inserts one row or, for a row the destination has already,
// records the destination's id.
func (m *merger) copyRow(t mergeTable, at map[string]int, vals []any, ins *sqlx.Stmt, insCols []string) error {
	if !t.ids {
		if _, err := ins.Exec(vals...); err != nil {
			return err
		}
		m.sum.Rows++
		return nil
	}
	old, _ := vals[at["id"]].(int64)
	if id, found, err := m.existing(t, at, vals); err != nil || found {
		m.ids[t.name][old] = id
		return err
	}
	args := make([]any, 0, len(insCols))
	for _, c := range insCols {
		args = append(args, vals[at[c]])
	}
	res, err := ins.Exec(args...)
	if err != nil {
		return err
	}
	id, err := res.LastInsertId()
	if err != nil {
		return err
	}
	m.ids[t.name][old], m.fresh[t.name][old] = id, true
	if m.newKey != "" {
		(*m.keys)[m.newKey], m.newKey = id, ""
	}
	m.sum.Rows++
	switch t.name {
	case "runs":
		m.sum.Runs++
	case "sweeps":
		m.sum.Sweeps++
	default:
		m.sum.Inputs++
	}
	return nil
}

// existing finds the destination's row for a row of a keyed table: the
// same content hash, or the same sweep definition (which must be of the
// same trace); for a run of a sweep, a run at the same position of the
// sweep, and for another run, a run of the same content (merge_runs.go),
// whose own rows are then left out.
func (m *merger) existing(t mergeTable, at map[string]int, vals []any) (id int64, found bool, err error) {
	if t.name == "runs" {
		sw, idx := vals[at["sweep_id"]], vals[at["sweep_index"]]
		if sw == nil || idx == nil {
			key, id, found, err := m.sameRun(at, m.cols, vals, idOf(vals[at["id"]]))
			if found {
				m.sum.Dups++ // mapped but not fresh: the duplicate's rows are skipped
			} else {
				m.newKey = key
			}
			return id, found, err
		}
		err := m.tx.Get(&id, `SELECT id FROM runs WHERE sweep_id = ? AND sweep_index = ?`, sw, idx)
		if errors.Is(err, sql.ErrNoRows) {
			return 0, false, nil
		}
		if err == nil {
			// Mapped but not fresh: the duplicate's rows are skipped.
			m.sum.Dups++
			return id, true, nil
		}
		return 0, false, err
	}
	for _, k := range t.keys {
		if key := vals[at[k]]; key != nil {
			id, found, err := m.sameKey(t, k, key, at, vals)
			if found || err != nil {
				return id, found, err
			}
		}
	}
	return 0, false, nil
}

// sameKey looks for the row of t's destination whose key column k holds
// key.
func (m *merger) sameKey(t mergeTable, k string, key any, at map[string]int, vals []any) (id int64, found bool, err error) {
	var row struct {
		ID         int64         `db:"id"`
		TraceID    sql.NullInt64 `db:"trace_id"`
		OrderTrace sql.NullInt64 `db:"order_trace_id"`
	}
	q := fmt.Sprintf(`SELECT id, NULL AS trace_id, NULL AS order_trace_id FROM %s WHERE %s = ?`, t.name, k)
	if t.name == "sweeps" {
		q = `SELECT id, trace_id, order_trace_id FROM sweeps WHERE def_hash = ?`
	}
	err = m.tx.Get(&row, q, key)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, false, nil
	}
	if err != nil {
		return 0, false, err
	}
	if t.name == "sweeps" && (row.TraceID.Int64 != idOf(vals[at["trace_id"]]) || row.OrderTrace.Int64 != idOf(vals[at["order_trace_id"]])) {
		return 0, false, fmt.Errorf("sweep %v has the definition %v of sweep %d of the destination but a different trace", vals[at["id"]], key, row.ID)
	}
	m.sum.Existing++
	return row.ID, true, nil
}

func withoutColumn(cols []string, drop string) []string {
	var out []string
	for _, c := range cols {
		if c != drop {
			out = append(out, c)
		}
	}
	return out
}

func columnIndex(cols []string) map[string]int {
	at := make(map[string]int, len(cols))
	for i, c := range cols {
		at[c] = i
	}
	return at
}

// idOf is a (remapped) id column's value, 0 for NULL.
func idOf(v any) int64 {
	id, _ := v.(int64)
	return id
}
