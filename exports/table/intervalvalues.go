package table

import (
	"context"
	"fmt"

	"github.com/jmoiron/sqlx"
)

// IntervalValue is one interval-level value (no per-processor one) with
// the names it is known by.
type IntervalValue struct {
	RunID          int64
	Path           string // interval path, as in v_intervals
	Characteristic string
	Value          float64
}

// ForEachIntervalValue calls fn for every interval-level value of the
// runs of one sweep (of one program unless program is ""), run by run in
// key order: the rows of v_values_long with proc NULL, read as the tidy
// table's fast path reads them.
func ForEachIntervalValue(ctx context.Context, db *sqlx.DB, sweepID int64, program string, fn func(IntervalValue) error) error {
	dims, err := loadValueDims(ctx, db, sweepID)
	if err != nil {
		return err
	}
	for _, run := range dims.runs {
		if program != "" && run.program != program {
			continue
		}
		err := scanRun(ctx, db, `SELECT interval_id, NULL, char_id, value FROM interval_values
			WHERE run_id = ? ORDER BY interval_id, char_id`, run, dims, func(r *valueRow) error {
			return fn(IntervalValue{RunID: run.id, Path: r.iv.path, Characteristic: r.char.name, Value: r.value})
		})
		if err != nil {
			return fmt.Errorf("run %d: %w", run.id, err)
		}
	}
	return nil
}
