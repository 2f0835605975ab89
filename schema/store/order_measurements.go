package store

import (
	"context"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/presage-dvm/presage/schema/stored"
)

// OrderMeasurementInfo describes a stored measured-run file of an orders
// program (orders/measured; schema/0007_order_measurements.sql, and
// 0013_orders_by_procedure.sql for the scheduler).
type OrderMeasurementInfo struct {
	ID         int64   `db:"id"`
	RunID      int64   `db:"run_id"` // the measured run
	Name       string  `db:"name"`
	Path       string  `db:"path"`
	SHA256     string  `db:"sha256"`
	Bytes      int64   `db:"bytes"`
	Program    string  `db:"program"`
	Machine    string  `db:"machine"`
	Workers    int     `db:"workers"`
	Cores      int     `db:"cores"`     // the workers are the cores of processes of Cores cores; 0: one process
	Scheduler  string  `db:"scheduler"` // "fifo" for files of version 1
	Migrate    bool    `db:"migrate"`
	Orders     int64   `db:"orders"`
	Makespan   float64 `db:"makespan"`
	Started    string  `db:"started"`
	IngestedAt string  `db:"ingested_at"`
	Existing   bool    `db:"-"` // stored already, nothing written
}

// SaveOrderMeasurement stores a measured-run file and its run in one
// transaction and sets m.Run.ID: the run, and the rows an orders
// simulation has besides (m.Detail is not stored: info holds what the
// file says), with its workers as nodes. When the store holds a file
// with the same SHA256 already, that one comes back with Existing set.
func (s *Store) SaveOrderMeasurement(ctx context.Context, info OrderMeasurementInfo, m *stored.OrderSimulation) (OrderMeasurementInfo, error) {
	if info.IngestedAt == "" {
		info.IngestedAt = time.Now().UTC().Format(time.RFC3339)
	}
	insert := func(tx *sqlx.Tx) (OrderMeasurementInfo, error) {
		res, err := tx.ExecContext(ctx, `INSERT INTO order_measurements(name, path, sha256, bytes, program, machine,
			workers, cores, scheduler, migrate, orders, makespan, started, ingested_at) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)`,
			info.Name, info.Path, info.SHA256, info.Bytes, info.Program, info.Machine,
			info.Workers, info.Cores, info.Scheduler, info.Migrate, info.Orders, info.Makespan, info.Started, info.IngestedAt)
		if err != nil {
			return info, fmt.Errorf("store measured run %s: %w", info.Path, err)
		}
		if info.ID, err = res.LastInsertId(); err != nil {
			return info, err
		}
		run := m.Run
		if err := saveRun(tx, run, SaveOptions{}); err != nil {
			return info, err
		}
		info.RunID = run.ID
		if _, err := tx.ExecContext(ctx, `UPDATE runs SET engine = 'orders', measurement_id = ? WHERE id = ?`, info.ID, run.ID); err != nil {
			return info, fmt.Errorf("store measured run %s: %w", info.Path, err)
		}
		if err := saveOrderRows(tx, run.ID, m); err != nil {
			return info, fmt.Errorf("store measured run %s: %w", info.Path, err)
		}
		return info, nil
	}
	lookup := func() (OrderMeasurementInfo, bool, error) { return s.OrderMeasurementBySHA(ctx, info.SHA256) }
	return saveFile(ctx, s, "order_measurements", insert, lookup)
}

// OrderMeasurementBySHA returns the stored measured-run file whose bytes
// had the given sha256, with Existing set, and whether there is one.
func (s *Store) OrderMeasurementBySHA(ctx context.Context, sum string) (OrderMeasurementInfo, bool, error) {
	info, found, err := getOptional[OrderMeasurementInfo](ctx, s.db, `SELECT m.id, m.name, m.path, m.sha256, m.bytes,
		m.program, m.machine, m.workers, m.cores, m.scheduler, m.migrate, m.orders, m.makespan, m.started, m.ingested_at,
		coalesce((SELECT min(r.id) FROM runs r WHERE r.measurement_id = m.id), 0) AS run_id
		FROM order_measurements m WHERE m.sha256 = ?`, sum)
	info.Existing = found
	return info, found, err
}
