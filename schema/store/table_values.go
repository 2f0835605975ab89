package store

import (
	"context"
	"fmt"

	"github.com/presage-dvm/presage/schema/stored"
)

// The tidy table is by far the largest, and reading it through
// v_values_long makes SQLite decode twenty columns and look up a run, an
// interval and a characteristic for every value. ValueRows reads the same
// rows as the view (a test compares them) from the value tables alone,
// four numbers per row scanned per run in key order, and joins the run,
// interval and characteristic columns from lookup tables of one sweep held
// in memory (their size grows with the intervals, not the values).

// sweepDims are the lookup tables of one sweep.
type sweepDims struct {
	runs      []*stored.RunRow
	intervals map[[2]int64]*stored.IntervalRow // by run and interval id
	chars     map[int64]*stored.CharacteristicRow
}

func (s *Store) sweepDims(ctx context.Context, sweepID int64) (*sweepDims, error) {
	d := &sweepDims{intervals: map[[2]int64]*stored.IntervalRow{}, chars: map[int64]*stored.CharacteristicRow{}}
	err := s.RunRows(ctx, sweepID, func(r *stored.RunRow) error {
		run := *r
		d.runs = append(d.runs, &run)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("runs: %w", err)
	}
	err = s.IntervalRows(ctx, sweepID, func(iv *stored.IntervalRow) error {
		row := *iv
		d.intervals[[2]int64{iv.RunID, iv.ID}] = &row
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("intervals: %w", err)
	}
	var id int64
	var c stored.CharacteristicRow
	err = s.eachRow(ctx, func() error {
		row := c
		d.chars[id] = &row
		return nil
	}, []any{&id, &c.Name, &c.Unit, &c.Family}, `SELECT id, name, unit, family FROM characteristics`)
	if err != nil {
		return nil, fmt.Errorf("characteristics: %w", err)
	}
	return d, nil
}

// interval looks up the interval a value of run belongs to.
func (d *sweepDims) interval(run *stored.RunRow, id int64) (*stored.IntervalRow, error) {
	iv := d.intervals[[2]int64{run.ID, id}]
	if iv == nil {
		return nil, fmt.Errorf("value of interval %d, which is not in the run's tree", id)
	}
	return iv, nil
}

// runIntervalValues queries the interval values of one run, in key order.
const runIntervalValues = `SELECT interval_id, NULL, char_id, value FROM interval_values WHERE run_id = ? ORDER BY interval_id, char_id`

// ValueRows calls fn for each value of the runs of one sweep: run by run,
// first the interval values then the per-processor ones, each in key
// order. The row is reused: fn must copy what it keeps.
func (s *Store) ValueRows(ctx context.Context, sweepID int64, fn func(*stored.ValueRow) error) error {
	dims, err := s.sweepDims(ctx, sweepID)
	if err != nil {
		return fmt.Errorf("sweep %d: %w", sweepID, err)
	}
	for _, run := range dims.runs {
		if err := s.runValues(ctx, runIntervalValues, run, dims, fn); err != nil {
			return fmt.Errorf("run %d: %w", run.ID, err)
		}
		if err := s.runProcValues(ctx, run, dims, fn); err != nil {
			return fmt.Errorf("run %d: %w", run.ID, err)
		}
	}
	return nil
}

// runProcValues calls fn for the per-processor values of run, in key
// order.
func (s *Store) runProcValues(ctx context.Context, run *stored.RunRow, dims *sweepDims, fn func(*stored.ValueRow) error) error {
	r := stored.ValueRow{Run: run}
	return eachProcValue(ctx, s.q, run.ID, func(v procValue) (err error) {
		if r.Interval, err = dims.interval(run, v.interval); err != nil {
			return err
		}
		if r.Char = dims.chars[v.char]; r.Char == nil {
			return fmt.Errorf("value of characteristic %d, which is not in the characteristics table", v.char)
		}
		r.Proc, r.Value = stored.Null[int64]{V: v.proc, Valid: true}, v.value
		return fn(&r)
	})
}

func (s *Store) runValues(ctx context.Context, query string, run *stored.RunRow, dims *sweepDims, fn func(*stored.ValueRow) error) error {
	r := stored.ValueRow{Run: run}
	var ivID, charID int64
	emit := func() (err error) {
		if r.Interval, err = dims.interval(run, ivID); err != nil {
			return err
		}
		if r.Char = dims.chars[charID]; r.Char == nil {
			return fmt.Errorf("value of characteristic %d, which is not in the characteristics table", charID)
		}
		return fn(&r)
	}
	return s.eachRow(ctx, emit, []any{&ivID, &r.Proc, &charID, &r.Value}, query, run.ID)
}

// IntervalValues calls fn for every interval-level value of the runs of
// one sweep (of one program unless program is ""), run by run in key
// order: the rows of v_values_long with proc NULL.
func (s *Store) IntervalValues(ctx context.Context, sweepID int64, program string, fn func(stored.IntervalValue) error) error {
	dims, err := s.sweepDims(ctx, sweepID)
	if err != nil {
		return fmt.Errorf("sweep %d: %w", sweepID, err)
	}
	for _, run := range dims.runs {
		if program != "" && run.Program != program {
			continue
		}
		err := s.runValues(ctx, runIntervalValues, run, dims, func(r *stored.ValueRow) error {
			return fn(stored.IntervalValue{RunID: run.ID, Path: r.Interval.Path, Characteristic: r.Char.Name, Value: r.Value})
		})
		if err != nil {
			return fmt.Errorf("run %d: %w", run.ID, err)
		}
	}
	return nil
}
