package store

import (
	"context"
	"fmt"

	"github.com/presage-dvm/presage/schema/stored"
	"github.com/presage-dvm/presage/sim/result"
)

// WideRows calls fn for each interval of the runs of one sweep that has
// values, run by run in interval id order. v_intervals_wide reads every
// value by its key, one look-up per column; the values of a run come in
// key order already, so for a whole sweep the pivot is done here, one
// interval at a time, in one pass (a test compares the rows with the
// view's). The row is reused: fn
// must copy what it keeps.
func (s *Store) WideRows(ctx context.Context, sweepID int64, fn func(*stored.WideRow) error) error {
	dims, err := s.sweepDims(ctx, sweepID)
	if err != nil {
		return fmt.Errorf("sweep %d: %w", sweepID, err)
	}
	for _, run := range dims.runs {
		if err := s.pivotRun(ctx, run, dims, fn); err != nil {
			return fmt.Errorf("run %d: %w", run.ID, err)
		}
	}
	return nil
}

// pivotRun emits one WideRow per interval of the run that has values.
func (s *Store) pivotRun(ctx context.Context, run *stored.RunRow, dims *sweepDims, fn func(*stored.WideRow) error) error {
	w := &stored.WideRow{Run: run}
	var ivID, ch int64
	var proc stored.Null[int64] // NULL: the interval values query is shared with ValueRows
	var v float64
	add := func() error {
		if w.Interval == nil || w.Interval.ID != ivID {
			if w.Interval != nil {
				if err := fn(w); err != nil {
					return err
				}
			}
			iv, err := dims.interval(run, ivID)
			if err != nil {
				return err
			}
			*w = stored.WideRow{Run: run, Interval: iv}
		}
		if ch < 0 || ch >= int64(result.NumChars) {
			return fmt.Errorf("interval %d: characteristic %d unknown to this build", ivID, ch)
		}
		w.Values[ch], w.Has[ch] = v, true
		return nil
	}
	if err := s.eachRow(ctx, add, []any{&ivID, &proc, &ch, &v}, runIntervalValues, run.ID); err != nil {
		return err
	}
	if w.Interval != nil {
		return fn(w)
	}
	return nil
}
