package table

import (
	"context"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/jmoiron/sqlx"

	"github.com/presage-dvm/presage/sim/result"
)

// streamWide is Stream for the Wide table: v_intervals_wide pivots with a
// GROUP BY that SQLite sorts in a temporary B-tree; the values of a run
// come in key order already, so the pivot is done here, one interval at a
// time. A test compares the rows with the view's.
func streamWide(ctx context.Context, db *sqlx.DB, t Table, sweepID int64, batchRows int,
	fn func(arrow.RecordBatch) error) (int64, error) {
	dims, err := loadValueDims(ctx, db, sweepID)
	if err != nil {
		return 0, fmt.Errorf("table %s: %w", t.Name, err)
	}
	appends, err := wideAppends(t)
	if err != nil {
		return 0, err
	}
	bt := newBatcher(t, sweepID, batchRows, fn)
	defer bt.release()
	emit := func(w *wideRow) error {
		for i, f := range appends {
			f(bt.b.Field(i), w)
		}
		return bt.added()
	}
	for _, run := range dims.runs {
		if err := pivotRun(ctx, db, run, dims, emit); err != nil {
			return bt.total, fmt.Errorf("table %s: run %d: %w", t.Name, run.id, err)
		}
	}
	return bt.total, bt.flush()
}

// wideRow is one interval with its values; has marks the stored ones.
type wideRow struct {
	run  *runDim
	iv   *intervalDim
	vals [result.NumChars]float64
	has  [result.NumChars]bool
}

func wideAppends(t Table) ([]func(array.Builder, *wideRow), error) {
	intervalCols := map[string]func(array.Builder, *intervalDim){
		"interval_id": func(b array.Builder, iv *intervalDim) { b.(*array.Int64Builder).Append(iv.id) },
		"parent":      func(b array.Builder, iv *intervalDim) { appendNullInt(b, iv.parent) },
		"path":        func(b array.Builder, iv *intervalDim) { b.(*array.StringBuilder).Append(iv.path) },
		"type":        func(b array.Builder, iv *intervalDim) { b.(*array.StringBuilder).Append(iv.typ) },
		"level":       func(b array.Builder, iv *intervalDim) { b.(*array.Int64Builder).Append(iv.level) },
		"file":        func(b array.Builder, iv *intervalDim) { b.(*array.StringBuilder).Append(iv.file) },
		"line":        func(b array.Builder, iv *intervalDim) { b.(*array.Int64Builder).Append(iv.line) },
		"count":       func(b array.Builder, iv *intervalDim) { b.(*array.Int64Builder).Append(iv.count) },
	}
	out := make([]func(array.Builder, *wideRow), len(t.Columns))
	for i, c := range t.Columns {
		if f := intervalCols[c.Name]; f != nil {
			out[i] = func(b array.Builder, w *wideRow) { f(b, w.iv) }
		} else if ch, ok := result.CharByName(c.Name); ok {
			out[i] = func(b array.Builder, w *wideRow) {
				if !w.has[ch] {
					b.AppendNull()
					return
				}
				b.(*array.Float64Builder).Append(w.vals[ch])
			}
		} else if f := valueColumns[c.Name]; f != nil && isRunColumn(c.Name) {
			out[i] = func(b array.Builder, w *wideRow) { f(b, &valueRow{run: w.run}) }
		} else {
			return nil, fmt.Errorf("table %s: no source for column %s", t.Name, c.Name)
		}
	}
	return out, nil
}

func isRunColumn(name string) bool {
	for _, c := range runColumns {
		if c.Name == name {
			return true
		}
	}
	return false
}

// pivotRun emits one wideRow per interval of the run that has values.
func pivotRun(ctx context.Context, db *sqlx.DB, run *runDim, dims *valueDims, emit func(*wideRow) error) error {
	rows, err := db.QueryContext(ctx, `SELECT interval_id, char_id, value FROM interval_values
		WHERE run_id = ? ORDER BY interval_id, char_id`, run.id)
	if err != nil {
		return err
	}
	defer rows.Close()
	w := &wideRow{run: run}
	cur := int64(-1)
	for rows.Next() {
		var ivID, ch int64
		var v float64
		if err := rows.Scan(&ivID, &ch, &v); err != nil {
			return err
		}
		if ivID != cur {
			if w.iv != nil {
				if err := emit(w); err != nil {
					return err
				}
			}
			*w = wideRow{run: run, iv: dims.intervals[[2]int64{run.id, ivID}]}
			if w.iv == nil {
				return fmt.Errorf("value of interval %d, which is not in the run's tree", ivID)
			}
			cur = ivID
		}
		if ch < 0 || ch >= int64(result.NumChars) {
			return fmt.Errorf("interval %d: characteristic %d unknown to this build", ivID, ch)
		}
		w.vals[ch], w.has[ch] = v, true
	}
	if err := rows.Err(); err != nil {
		return err
	}
	if w.iv != nil {
		return emit(w)
	}
	return nil
}
