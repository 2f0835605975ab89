package store

import (
	"context"
	"fmt"
	"slices"

	"github.com/presage-dvm/presage/sim/result"
)

// SweepReport is what the report of a sweep shows besides the lost-time
// breakdown of one of its runs (Run gives that run).
type SweepReport struct {
	Sweep   Sweep
	Trace   string // the name of the sweep's trace
	Configs []SweepConfig
}

// SweepConfig is one stored run of a sweep: its configuration and its
// headline numbers. Unset overrides (network, tstart, …) are zero.
type SweepConfig struct {
	RunID   int64   `db:"id"`
	Program string  `db:"program"`
	Machine string  `db:"machine"`
	Grid    string  `db:"grid"`
	Procs   int     `db:"procs"`
	Network string  `db:"network"`
	TStart  float64 `db:"tstart"` // 0 = the machine file's
	TByte   float64 `db:"tbyte"`
	Power   float64 `db:"power"`
	Time    float64 `db:"execution_time"`
	// Efficiency of the root interval, not Valid when not stored.
	Efficiency Null[float64] `db:"effic"`
}

// SweepReport returns sweep id with its trace's name and its runs in id
// order. The error of an unknown sweep wraps ErrNotFound.
func (s *Store) SweepReport(ctx context.Context, id int64) (*SweepReport, error) {
	sweeps, err := s.Sweeps(ctx)
	if err != nil {
		return nil, err
	}
	i := slices.IndexFunc(sweeps, func(sw Sweep) bool { return sw.ID == id })
	if i < 0 {
		return nil, notFound(fmt.Sprintf("sweep %d: no such sweep in the store", id))
	}
	rep := &SweepReport{Sweep: sweeps[i]}
	if rep.Trace, err = s.traceName(ctx, rep.Sweep.TraceID); err != nil {
		return nil, fmt.Errorf("sweep %d: trace: %w", id, err)
	}
	err = s.db.SelectContext(ctx, &rep.Configs, `SELECT r.id, r.program, coalesce(r.machine, '') AS machine, r.grid, r.procs,
			coalesce(r.network, '') AS network, coalesce(r.tstart, 0) AS tstart,
			coalesce(r.tbyte, 0) AS tbyte, coalesce(r.power, 0) AS power, r.execution_time,
			`+rootValueOrNull("r.id")+` AS effic
		FROM runs r WHERE r.sweep_id = ? ORDER BY r.id`, int(result.Efficiency), id)
	if err != nil {
		return nil, fmt.Errorf("sweep %d: runs: %w", id, err)
	}
	return rep, nil
}

// traceName is the name of trace id, or a note saying it is not stored.
func (s *Store) traceName(ctx context.Context, id int64) (string, error) {
	name, found, err := getOptional[string](ctx, s.db, `SELECT name FROM traces WHERE id = ?`, id)
	if err != nil || found {
		return name, err
	}
	return fmt.Sprintf("trace %d (not in the store)", id), nil
}
