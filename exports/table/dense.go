package table

import (
	"context"

	"github.com/presage-dvm/presage/schema/stored"
)

// Dense is src with the zeros of the tidy table made explicit: the store
// keeps a processor's value of a characteristic only when it is not zero
// (the execution time always), so a pivot of the sparse table gives NaN
// where the value is 0. Dense writes, for every interval with
// per-processor values, every characteristic of every processor of the
// run, 0 where none is stored; the interval values and the other tables
// are src's.
func Dense(src Source) Source { return &dense{Source: src} }

type dense struct{ Source }

// procValue names a per-processor value of a run.
type procValue struct {
	interval *stored.IntervalRow
	proc     int64
	char     *stored.CharacteristicRow
}

// ValueRows hands on every interval value as src gives it, collects the
// per-processor values of a run and writes them densely when the run
// ends. The store's rows point at dimension rows that stay valid for the
// whole call.
func (s *dense) ValueRows(ctx context.Context, sweepID int64, fn func(*stored.ValueRow) error) error {
	var run *stored.RunRow
	var chars []*stored.CharacteristicRow // the run's characteristics, in order
	var intervals []*stored.IntervalRow   // those with per-processor values, in order
	values := map[procValue]float64{}
	seen := map[any]bool{}
	flush := func() error {
		for _, iv := range intervals {
			for p := range run.Procs {
				for _, c := range chars {
					row := stored.ValueRow{Run: run, Interval: iv, Char: c, Proc: stored.Null[int64]{V: p, Valid: true},
						Value: values[procValue{iv, p, c}]}
					if err := fn(&row); err != nil {
						return err
					}
				}
			}
		}
		chars, intervals, values, seen = nil, nil, map[procValue]float64{}, map[any]bool{}
		return nil
	}
	err := s.Source.ValueRows(ctx, sweepID, func(r *stored.ValueRow) error {
		if r.Run != run {
			if err := flush(); err != nil {
				return err
			}
			run = r.Run
		}
		if !r.Proc.Valid {
			if !seen[r.Char] {
				seen[r.Char] = true
				chars = append(chars, r.Char)
			}
			return fn(r)
		}
		if !seen[r.Interval] {
			seen[r.Interval] = true
			intervals = append(intervals, r.Interval)
		}
		values[procValue{r.Interval, r.Proc.V, r.Char}] = r.Value
		return nil
	})
	if err != nil {
		return err
	}
	return flush()
}
