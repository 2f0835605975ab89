package store

import (
	"context"
	"database/sql"
	"errors"
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
			messages, hub, relay, order_cost, wait_cost, ahead, ahead_max, power, makespan, work, span, burdened_span, parallelism, speedup, speedup_lo, speedup_hi)
			VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)`, run.ID, d.TraceID, d.Scheduler, d.Migrate, d.Nodes, d.Cores, d.Latency, d.Bandwidth,
			d.Messages, d.Hub, d.Relay, d.OrderCost, d.WaitCost, d.Ahead, d.AheadMax, d.Power, d.Makespan, d.Work, d.Span, d.BurdenedSpan, d.Parallelism, d.Speedup, d.SpeedupLo, d.SpeedupHi); err != nil {
			return fmt.Errorf("save orders run: %w", err)
		}
		saved = true
		return saveOrderRows(tx, run.ID, sim)
	})
	return saved, err
}

// saveOrderRows writes the per-node, critical-path, per-order,
// per-stretch and per-procedure rows of a simulation or a measured run.
func saveOrderRows(tx *sqlx.Tx, runID int64, sim *stored.OrderSimulation) error {
	nodes := newBatch(tx, `order_nodes(run_id, node, orders, busy, idle, waiting, transfer)`, 7)
	path := newBatch(tx, `order_critical_path(run_id, step, order_id, node, start, end, wait, reason, proc)`, 9)
	events := newBatch(tx, `order_events(run_id, order_id, node, ready, start, end, wait, proc, parent, child)`, 10)
	stretches := newBatch(tx, `order_stretches(run_id, order_id, seq, node, start, end)`, 6)
	procs := newBatch(tx, `order_procs(run_id, proc, orders, work, path_time, mean_duration, sd_duration)`, 7)
	all := []*batch{nodes, path, events, stretches, procs}
	defer func() {
		for _, b := range all {
			b.close()
		}
	}()
	for _, n := range sim.Nodes {
		if err := nodes.add(runID, n.Node, n.Orders, n.Busy, n.Idle, n.Waiting, n.Transfer); err != nil {
			return err
		}
	}
	for _, p := range sim.Path {
		if err := path.add(runID, p.Step, p.Order, p.Node, p.Start, p.End, p.Wait, p.Reason, p.Proc); err != nil {
			return err
		}
	}
	for _, e := range sim.Events {
		if err := events.add(runID, e.Order, e.Node, e.Ready, e.Start, e.End, e.Wait, e.Proc, e.Parent, e.Child); err != nil {
			return err
		}
	}
	for _, x := range sim.Stretches {
		if err := stretches.add(runID, x.Order, x.Seq, x.Node, x.Start, x.End); err != nil {
			return err
		}
	}
	for _, p := range sim.Procs {
		if err := procs.add(runID, p.Proc, p.Orders, p.Work, p.PathTime, p.MeanDuration, p.SDDuration); err != nil {
			return err
		}
	}
	for _, b := range all {
		if err := b.flush(); err != nil {
			return fmt.Errorf("save orders run: %w", err)
		}
	}
	return nil
}

// IsOrdersRun reports whether run id was made by the orders engine: an
// orders simulation or a measured orders run, which OrderSimulation reads.
func (s *Store) IsOrdersRun(ctx context.Context, id int64) (bool, error) {
	var engine string
	if err := s.db.GetContext(ctx, &engine, `SELECT engine FROM runs WHERE id = ?`, id); err != nil {
		if errors.Is(err, sql.ErrNoRows) {
			return false, fmt.Errorf("run %d: %w", id, ErrNoRun)
		}
		return false, err
	}
	return engine == "orders", nil
}

// OrderSimulation reads an orders run back, simulated or measured, with
// at most maxEvents of its per-order rows (every one when maxEvents is
// negative), the earliest started first, and their stretches. Of a
// measured run (presage ingest orders-run), Detail is what the
// measured-run file says: its scheduler and migration, its workers as
// nodes of one core with free transfers, its makespan, the workers' busy
// time as the work and work / makespan as the speedup; TraceID and what
// needs the trace (span, parallelism, the speedup's bounds) are 0.
func (s *Store) OrderSimulation(ctx context.Context, runID int64, maxEvents int) (*stored.OrderSimulation, error) {
	run, err := s.Run(runID)
	if err != nil {
		return nil, err
	}
	sim := &stored.OrderSimulation{Run: run}
	detail, simulated, err := getOptional[stored.OrderRun](ctx, s.db, `SELECT trace_id, scheduler, migrate, nodes, cores, latency, bandwidth,
		messages, hub, relay, order_cost, wait_cost, ahead, ahead_max, power, makespan, work, span, burdened_span, parallelism, speedup, speedup_lo, speedup_hi FROM order_runs WHERE run_id = ?`, runID)
	if err != nil {
		return nil, err
	}
	sim.Detail = detail
	if !simulated {
		m, ok, err := getOptional[stored.OrderRun](ctx, s.db, `SELECT m.scheduler, m.migrate, m.workers / max(m.cores, 1) AS nodes, max(m.cores, 1) AS cores,
			CASE WHEN m.cores > 0 THEN m.workers / m.cores ELSE 0 END AS processes, 1.0 AS power,
			m.makespan, coalesce((SELECT sum(busy) FROM order_nodes WHERE run_id = r.id), 0.0) AS work
			FROM runs r JOIN order_measurements m ON m.id = r.measurement_id WHERE r.id = ?`, runID)
		if err != nil {
			return nil, err
		}
		if !ok {
			return nil, fmt.Errorf("run %d is not an orders run (neither simulated from an order trace nor a measured orders run)", runID)
		}
		if m.Makespan > 0 {
			m.Speedup = m.Work / m.Makespan
		}
		sim.Detail = m
	}
	if err := s.db.SelectContext(ctx, &sim.Nodes, `SELECT node, orders, busy, idle, waiting, transfer FROM order_nodes
		WHERE run_id = ? ORDER BY node`, runID); err != nil {
		return nil, err
	}
	if err := s.db.SelectContext(ctx, &sim.Path, `SELECT step, order_id, proc, node, start, end, wait, reason FROM order_critical_path
		WHERE run_id = ? ORDER BY step`, runID); err != nil {
		return nil, err
	}
	const kept = `SELECT order_id FROM order_events WHERE run_id = ? ORDER BY start, order_id LIMIT ?`
	if err := s.db.SelectContext(ctx, &sim.Events, `SELECT order_id, proc, parent, child, node, ready, start, end, wait FROM order_events
		WHERE run_id = ? ORDER BY start, order_id LIMIT ?`, runID, maxEvents); err != nil {
		return nil, err
	}
	if err := s.db.SelectContext(ctx, &sim.Stretches, `SELECT order_id, seq, node, start, end FROM order_stretches
		WHERE run_id = ? AND order_id IN (`+kept+`) ORDER BY order_id, seq`, runID, runID, maxEvents); err != nil {
		return nil, err
	}
	if err := s.db.SelectContext(ctx, &sim.Procs, `SELECT proc, orders, work, path_time, mean_duration, sd_duration FROM order_procs
		WHERE run_id = ? ORDER BY proc`, runID); err != nil {
		return nil, err
	}
	return sim, nil
}

// OrderSweepRuns returns the orders simulations of a sweep, by node count
// then run id.
func (s *Store) OrderSweepRuns(ctx context.Context, sweepID int64) ([]stored.OrderRunRow, error) {
	var out []stored.OrderRunRow
	err := s.db.SelectContext(ctx, &out, `SELECT o.run_id, r.sweep_index, o.trace_id, o.scheduler, o.migrate, o.nodes, o.cores, o.latency,
		o.bandwidth, o.messages, o.hub, o.relay, o.order_cost, o.wait_cost, o.ahead, o.ahead_max, o.power, o.makespan, o.work, o.span, o.burdened_span, o.parallelism, o.speedup, o.speedup_lo, o.speedup_hi
		FROM order_runs o JOIN runs r ON r.id = o.run_id WHERE r.sweep_id = ? ORDER BY o.nodes, o.run_id`, sweepID)
	return out, err
}
