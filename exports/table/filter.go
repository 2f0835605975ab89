package table

import (
	"context"

	"github.com/presage-dvm/presage/schema/stored"
)

// Filter narrows an export to the runs of one trace and/or one run (0:
// any). The store streams whole sweeps; Filtered drops the rows of the
// other runs and the sweeps left without runs.
type Filter struct {
	TraceID, RunID int64
}

// keeps reports whether the run r passes the filter.
func (f Filter) keeps(r *stored.RunRow) bool {
	return (f.RunID == 0 || r.ID == f.RunID) && (f.TraceID == 0 || r.TraceID.Valid && r.TraceID.V == f.TraceID)
}

// Filtered is src restricted to the runs f keeps; src itself when f keeps
// everything.
func Filtered(src Source, f Filter) Source {
	if f == (Filter{}) {
		return src
	}
	return &filtered{Source: src, f: f, kept: map[int64]map[int64]bool{}}
}

type filtered struct {
	Source
	f    Filter
	kept map[int64]map[int64]bool // by sweep, once read
}

// runs returns the ids of the kept runs of a sweep, read once.
func (s *filtered) runs(ctx context.Context, sweepID int64) (map[int64]bool, error) {
	if kept, ok := s.kept[sweepID]; ok {
		return kept, nil
	}
	kept := map[int64]bool{}
	err := s.Source.RunRows(ctx, sweepID, func(r *stored.RunRow) error {
		if s.f.keeps(r) {
			kept[r.ID] = true
		}
		return nil
	})
	if err == nil {
		s.kept[sweepID] = kept
	}
	return kept, err
}

func (s *filtered) ExportSweeps(ctx context.Context, only int64) ([]int64, error) {
	all, err := s.Source.ExportSweeps(ctx, only)
	if err != nil {
		return nil, err
	}
	var out []int64
	for _, sw := range all {
		kept, err := s.runs(ctx, sw)
		if err != nil {
			return nil, err
		}
		if len(kept) > 0 {
			out = append(out, sw)
		}
	}
	return out, nil
}

func (s *filtered) RunRows(ctx context.Context, sweepID int64, fn func(*stored.RunRow) error) error {
	return s.Source.RunRows(ctx, sweepID, func(r *stored.RunRow) error {
		if !s.f.keeps(r) {
			return nil
		}
		return fn(r)
	})
}

func (s *filtered) IntervalRows(ctx context.Context, sweepID int64, fn func(*stored.IntervalRow) error) error {
	kept, err := s.runs(ctx, sweepID)
	if err != nil {
		return err
	}
	return s.Source.IntervalRows(ctx, sweepID, func(r *stored.IntervalRow) error {
		if !kept[r.RunID] {
			return nil
		}
		return fn(r)
	})
}

func (s *filtered) ValueRows(ctx context.Context, sweepID int64, fn func(*stored.ValueRow) error) error {
	return s.Source.ValueRows(ctx, sweepID, func(r *stored.ValueRow) error {
		if !s.f.keeps(r.Run) {
			return nil
		}
		return fn(r)
	})
}

func (s *filtered) WideRows(ctx context.Context, sweepID int64, fn func(*stored.WideRow) error) error {
	return s.Source.WideRows(ctx, sweepID, func(r *stored.WideRow) error {
		if !s.f.keeps(r.Run) {
			return nil
		}
		return fn(r)
	})
}
