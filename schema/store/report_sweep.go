package store

import (
	"context"
	"fmt"
	"slices"

	"github.com/presage-dvm/presage/schema/stored"
	"github.com/presage-dvm/presage/sim/result"
)

// SweepReport returns sweep id with its trace's name and its runs in id
// order. The error of an unknown sweep wraps ErrNotFound.
func (s *Store) SweepReport(ctx context.Context, id int64) (*stored.SweepReport, error) {
	sweeps, err := s.Sweeps(ctx)
	if err != nil {
		return nil, err
	}
	i := slices.IndexFunc(sweeps, func(sw stored.Sweep) bool { return sw.ID == id })
	if i < 0 {
		return nil, notFound(fmt.Sprintf("sweep %d: no such sweep in the store", id))
	}
	rep := &stored.SweepReport{Sweep: sweeps[i]}
	if rep.Trace, err = s.traceName(ctx, rep.Sweep.TraceID); err != nil {
		return nil, fmt.Errorf("sweep %d: trace: %w", id, err)
	}
	err = s.db.SelectContext(ctx, &rep.Configs, `SELECT r.id, r.program, coalesce(r.machine, '') AS machine, r.grid, r.procs,
			coalesce(r.network, '') AS network, coalesce(r.tstart_us, 0) / 1e6 AS tstart,
			coalesce(r.tbyte_us, 0) / 1e6 AS tbyte, coalesce(r.power, 0) AS power, r.execution_time, r.doubtful,
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
