package store

import (
	"context"
	"fmt"

	"github.com/jmoiron/sqlx"
	"github.com/presage-dvm/presage/schema/stored"
)

// An orders simulation is stored as a run (engine 'orders') — its
// characteristics and per-node values go where every run's go, so the
// views and exports carry them — plus the order_* rows below.

// SaveOrderSimulation stores sim in one transaction and sets sim.Run.ID;
// index is its position in sim.Run.SweepID's sweep, or -1. As with
// SaveSweepRun, a position stored first by another process is left as it
// is and stored is false.
func (s *Store) SaveOrderSimulation(ctx context.Context, sim *stored.OrderSimulation, index int, opt SaveOptions) (saved bool, err error) {
	err = s.update(ctx, func(tx *sqlx.Tx) error {
		run := sim.Run
		if index >= 0 {
			if taken, err := positionTaken(tx, run.SweepID, index); err != nil || taken {
				return err
			}
		}
		if err := saveRun(tx, run, opt); err != nil {
			return err
		}
		var sweepIndex any
		if index >= 0 {
			sweepIndex = index
		}
		if _, err := tx.ExecContext(ctx, `UPDATE runs SET engine = 'orders', order_trace_id = ?, sweep_index = ? WHERE id = ?`,
			sim.Detail.TraceID, sweepIndex, run.ID); err != nil {
			return fmt.Errorf("save orders run: %w", err)
		}
		d := sim.Detail
		if _, err := tx.ExecContext(ctx, `INSERT INTO order_runs(run_id, trace_id, scheduler, migrate, nodes, cores, latency, bandwidth,
			power, makespan, work, span, burdened_span, parallelism, speedup, speedup_lo, speedup_hi)
			VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)`, run.ID, d.TraceID, d.Scheduler, d.Migrate, d.Nodes, d.Cores, d.Latency, d.Bandwidth,
			d.Power, d.Makespan, d.Work, d.Span, d.BurdenedSpan, d.Parallelism, d.Speedup, d.SpeedupLo, d.SpeedupHi); err != nil {
			return fmt.Errorf("save orders run: %w", err)
		}
		saved = true
		return saveOrderRows(tx, run.ID, sim)
	})
	return saved, err
}

// saveOrderRows writes the per-node, critical-path and per-order rows.
func saveOrderRows(tx *sqlx.Tx, runID int64, sim *stored.OrderSimulation) error {
	nodes := newBatch(tx, `order_nodes(run_id, node, orders, busy, idle, waiting, transfer)`, 7)
	path := newBatch(tx, `order_critical_path(run_id, step, order_id, node, start, end, wait, reason)`, 8)
	events := newBatch(tx, `order_events(run_id, order_id, node, ready, start, end, wait)`, 7)
	defer func() {
		for _, b := range []*batch{nodes, path, events} {
			b.close()
		}
	}()
	for _, n := range sim.Nodes {
		if err := nodes.add(runID, n.Node, n.Orders, n.Busy, n.Idle, n.Waiting, n.Transfer); err != nil {
			return err
		}
	}
	for _, p := range sim.Path {
		if err := path.add(runID, p.Step, p.Order, p.Node, p.Start, p.End, p.Wait, p.Reason); err != nil {
			return err
		}
	}
	for _, e := range sim.Events {
		if err := events.add(runID, e.Order, e.Node, e.Ready, e.Start, e.End, e.Wait); err != nil {
			return err
		}
	}
	for _, b := range []*batch{nodes, path, events} {
		if err := b.flush(); err != nil {
			return fmt.Errorf("save orders run: %w", err)
		}
	}
	return nil
}

// OrderSimulation reads an orders simulation back (with at most
// maxEvents of its per-order rows, the earliest started first).
func (s *Store) OrderSimulation(ctx context.Context, runID int64, maxEvents int) (*stored.OrderSimulation, error) {
	run, err := s.Run(runID)
	if err != nil {
		return nil, err
	}
	sim := &stored.OrderSimulation{Run: run}
	if err := s.db.GetContext(ctx, &sim.Detail, `SELECT trace_id, scheduler, migrate, nodes, cores, latency, bandwidth, power, makespan,
		work, span, burdened_span, parallelism, speedup, speedup_lo, speedup_hi FROM order_runs WHERE run_id = ?`, runID); err != nil {
		return nil, fmt.Errorf("run %d is not an orders simulation: %w", runID, err)
	}
	if err := s.db.SelectContext(ctx, &sim.Nodes, `SELECT node, orders, busy, idle, waiting, transfer FROM order_nodes
		WHERE run_id = ? ORDER BY node`, runID); err != nil {
		return nil, err
	}
	if err := s.db.SelectContext(ctx, &sim.Path, `SELECT step, order_id, node, start, end, wait, reason FROM order_critical_path
		WHERE run_id = ? ORDER BY step`, runID); err != nil {
		return nil, err
	}
	if err := s.db.SelectContext(ctx, &sim.Events, `SELECT order_id, node, ready, start, end, wait FROM order_events
		WHERE run_id = ? ORDER BY start, order_id LIMIT ?`, runID, maxEvents); err != nil {
		return nil, err
	}
	return sim, nil
}

// OrderSweepRuns returns the orders simulations of a sweep, by node count
// then run id.
func (s *Store) OrderSweepRuns(ctx context.Context, sweepID int64) ([]stored.OrderRunRow, error) {
	var out []stored.OrderRunRow
	err := s.db.SelectContext(ctx, &out, `SELECT o.run_id, r.sweep_index, o.trace_id, o.scheduler, o.migrate, o.nodes, o.cores, o.latency,
		o.bandwidth, o.power, o.makespan, o.work, o.span, o.burdened_span, o.parallelism, o.speedup, o.speedup_lo, o.speedup_hi
		FROM order_runs o JOIN runs r ON r.id = o.run_id WHERE r.sweep_id = ? ORDER BY o.nodes, o.run_id`, sweepID)
	return out, err
}
