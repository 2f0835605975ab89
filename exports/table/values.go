package table

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/jmoiron/sqlx"
)

// The tidy table is by far the largest, and reading it through
// v_values_long makes SQLite decode twenty columns and look up a run, an
// interval and a characteristic for every value. streamValues reads the
// same rows as the view (a test compares them) from the value tables
// alone, five numbers per row scanned per run in key order, and joins the
// run, interval and characteristic columns from lookup tables of one
// sweep held in memory (their size grows with the intervals, not the
// values).

// valueRow is one value with its dimensions.
type valueRow struct {
	run   *runDim
	iv    *intervalDim
	char  *charDim
	proc  sql.NullInt64
	value float64
}

type runDim struct {
	id                   int64
	kind, program, grid  string
	machine, network     sql.NullString
	procs                int64
	tstart, tbyte, power sql.NullFloat64
}

type intervalDim struct {
	id, level, line, count int64
	parent                 sql.NullInt64
	path, typ, file        string
}

type charDim struct{ name, unit, family string }

// valueColumns appends each column of Values from a valueRow.
var valueColumns = map[string]func(b array.Builder, r *valueRow){
	"run_id":         func(b array.Builder, r *valueRow) { b.(*array.Int64Builder).Append(r.run.id) },
	"kind":           func(b array.Builder, r *valueRow) { b.(*array.StringBuilder).Append(r.run.kind) },
	"program":        func(b array.Builder, r *valueRow) { b.(*array.StringBuilder).Append(r.run.program) },
	"machine":        func(b array.Builder, r *valueRow) { appendNullString(b, r.run.machine) },
	"grid":           func(b array.Builder, r *valueRow) { b.(*array.StringBuilder).Append(r.run.grid) },
	"procs":          func(b array.Builder, r *valueRow) { b.(*array.Int64Builder).Append(r.run.procs) },
	"network":        func(b array.Builder, r *valueRow) { appendNullString(b, r.run.network) },
	"tstart":         func(b array.Builder, r *valueRow) { appendNullFloat(b, r.run.tstart) },
	"tbyte":          func(b array.Builder, r *valueRow) { appendNullFloat(b, r.run.tbyte) },
	"power":          func(b array.Builder, r *valueRow) { appendNullFloat(b, r.run.power) },
	"interval_id":    func(b array.Builder, r *valueRow) { b.(*array.Int64Builder).Append(r.iv.id) },
	"path":           func(b array.Builder, r *valueRow) { b.(*array.StringBuilder).Append(r.iv.path) },
	"type":           func(b array.Builder, r *valueRow) { b.(*array.StringBuilder).Append(r.iv.typ) },
	"level":          func(b array.Builder, r *valueRow) { b.(*array.Int64Builder).Append(r.iv.level) },
	"line":           func(b array.Builder, r *valueRow) { b.(*array.Int64Builder).Append(r.iv.line) },
	"proc":           func(b array.Builder, r *valueRow) { appendNullInt(b, r.proc) },
	"characteristic": func(b array.Builder, r *valueRow) { b.(*array.StringBuilder).Append(r.char.name) },
	"unit":           func(b array.Builder, r *valueRow) { b.(*array.StringBuilder).Append(r.char.unit) },
	"family":         func(b array.Builder, r *valueRow) { b.(*array.StringBuilder).Append(r.char.family) },
	"value":          func(b array.Builder, r *valueRow) { b.(*array.Float64Builder).Append(r.value) },
}

func appendNullString(b array.Builder, v sql.NullString) {
	if !v.Valid {
		b.AppendNull()
		return
	}
	b.(*array.StringBuilder).Append(v.String)
}

func appendNullFloat(b array.Builder, v sql.NullFloat64) {
	if !v.Valid {
		b.AppendNull()
		return
	}
	b.(*array.Float64Builder).Append(v.Float64)
}

func appendNullInt(b array.Builder, v sql.NullInt64) {
	if !v.Valid {
		b.AppendNull()
		return
	}
	b.(*array.Int64Builder).Append(v.Int64)
}

// valueDims are the lookup tables of one sweep.
type valueDims struct {
	runs      []*runDim
	intervals map[[2]int64]*intervalDim
	chars     map[int64]*charDim
}

func loadValueDims(ctx context.Context, db *sqlx.DB, sweepID int64) (*valueDims, error) {
	d := &valueDims{intervals: map[[2]int64]*intervalDim{}, chars: map[int64]*charDim{}}
	rows, err := db.QueryContext(ctx, `SELECT run_id, kind, program, machine, grid, procs, network, tstart, tbyte, power
		FROM v_runs WHERE sweep_id = ? ORDER BY run_id`, sweepID)
	if err != nil {
		return nil, err
	}
	for rows.Next() {
		r := &runDim{}
		if err := rows.Scan(&r.id, &r.kind, &r.program, &r.machine, &r.grid, &r.procs, &r.network, &r.tstart, &r.tbyte, &r.power); err != nil {
			rows.Close()
			return nil, err
		}
		d.runs = append(d.runs, r)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	rows, err = db.QueryContext(ctx, `SELECT run_id, interval_id, parent, path, type, level, file, line, count
		FROM v_intervals WHERE sweep_id = ?`, sweepID)
	if err != nil {
		return nil, err
	}
	for rows.Next() {
		iv := &intervalDim{}
		var run int64
		if err := rows.Scan(&run, &iv.id, &iv.parent, &iv.path, &iv.typ, &iv.level, &iv.file, &iv.line, &iv.count); err != nil {
			rows.Close()
			return nil, err
		}
		d.intervals[[2]int64{run, iv.id}] = iv
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	rows, err = db.QueryContext(ctx, `SELECT id, name, unit, family FROM characteristics`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		c := &charDim{}
		var id int64
		if err := rows.Scan(&id, &c.name, &c.unit, &c.family); err != nil {
			return nil, err
		}
		d.chars[id] = c
	}
	return d, rows.Err()
}

// streamValues is Stream for the Values table.
func streamValues(ctx context.Context, db *sqlx.DB, t Table, sweepID int64, batchRows int,
	fn func(arrow.RecordBatch) error) (int64, error) {
	dims, err := loadValueDims(ctx, db, sweepID)
	if err != nil {
		return 0, fmt.Errorf("table %s: %w", t.Name, err)
	}
	bt := newBatcher(t, sweepID, batchRows, fn)
	defer bt.release()
	appends := make([]func(array.Builder, *valueRow), len(t.Columns))
	for i, c := range t.Columns {
		if appends[i] = valueColumns[c.Name]; appends[i] == nil {
			return 0, fmt.Errorf("table %s: no source for column %s", t.Name, c.Name)
		}
	}
	emit := func(r *valueRow) error {
		for i, f := range appends {
			f(bt.b.Field(i), r)
		}
		return bt.added()
	}
	for _, run := range dims.runs {
		for _, q := range []string{
			`SELECT interval_id, NULL, char_id, value FROM interval_values WHERE run_id = ? ORDER BY interval_id, char_id`,
			`SELECT interval_id, proc, char_id, value FROM interval_proc_values WHERE run_id = ? ORDER BY interval_id, proc, char_id`,
		} {
			if err := scanRun(ctx, db, q, run, dims, emit); err != nil {
				return bt.total, fmt.Errorf("table %s: run %d: %w", t.Name, run.id, err)
			}
		}
	}
	return bt.total, bt.flush()
}

func scanRun(ctx context.Context, db *sqlx.DB, q string, run *runDim, dims *valueDims, emit func(*valueRow) error) error {
	rows, err := db.QueryContext(ctx, q, run.id)
	if err != nil {
		return err
	}
	defer rows.Close()
	r := valueRow{run: run}
	var ivID, charID int64
	for rows.Next() {
		if err := rows.Scan(&ivID, &r.proc, &charID, &r.value); err != nil {
			return err
		}
		if r.iv = dims.intervals[[2]int64{run.id, ivID}]; r.iv == nil {
			return fmt.Errorf("value of interval %d, which is not in the run's tree", ivID)
		}
		if r.char = dims.chars[charID]; r.char == nil {
			return fmt.Errorf("value of characteristic %d, which is not in the characteristics table", charID)
		}
		if err := emit(&r); err != nil {
			return err
		}
	}
	return rows.Err()
}
