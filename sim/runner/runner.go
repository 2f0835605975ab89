// Package runner ties the simulator to the store: it streams a stored
// trace into the simulator with a stored machine, predicts one
// configuration and saves the run, all or nothing, in one transaction.
package runner

import (
	"context"
	"fmt"
	"path/filepath"

	"github.com/jmoiron/sqlx"

	"github.com/presage-dvm/presage/ingest/machinedb"
	"github.com/presage-dvm/presage/ingest/tracedb"
	"github.com/presage-dvm/presage/sim"
	"github.com/presage-dvm/presage/sim/result"
)

// Request names a stored trace and machine and the configuration to predict.
type Request struct {
	Trace   string        // trace name or id
	Machine string        // machine name or id
	Config  result.Config // grid, network and overrides; Machine fields are filled in
	Options sim.Options
}

// Predict runs the prediction of req and stores it. The trace is streamed
// from the store into the simulator (tracedb.Stream): memory grows with
// the distinct calls of the trace and the simulated state, not with the
// trace's length.
func Predict(ctx context.Context, db *sqlx.DB, req Request) (*result.Run, error) {
	info, err := tracedb.Find(db, req.Trace)
	if err != nil {
		return nil, err
	}
	// The machine is read before the trace is opened: a trace ingested
	// before packs streams from a query that holds a connection.
	m, minfo, err := machinedb.Load(db, req.Machine)
	if err != nil {
		return nil, err
	}
	cfg := req.Config
	cfg.Machine, cfg.MachineID = minfo.Name, minfo.ID
	if len(cfg.Grid) == 0 {
		cfg.Grid = []int{1}
		if len(m.Topology) > 0 {
			cfg.Grid = append([]int(nil), m.Topology...)
		}
	}
	if cfg.Network == "" {
		cfg.Network = "cluster"
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	opt := req.Options
	if opt.Trace == "" {
		// Errors name the trace file the user ingested.
		opt.Trace = filepath.Base(info.Path)
	}
	tr, err := tracedb.OpenTrace(ctx, db, info)
	if err != nil {
		return nil, err
	}
	run, err := sim.Predict(tr.Header, tr, m.WithOverrides(cfg.TStart, cfg.TByte, cfg.Power), cfg, opt)
	tr.Close()
	if err != nil {
		return nil, err
	}
	run.TraceID, run.Program = info.ID, info.Name
	if err := SaveRun(db, run); err != nil {
		return nil, err
	}
	return run, nil
}

// SaveRun stores run in its own transaction.
func SaveRun(db *sqlx.DB, run *result.Run) error {
	tx, err := db.Beginx()
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if err := result.Save(tx, run, result.SaveOptions{}); err != nil {
		return fmt.Errorf("store run: %w", err)
	}
	return tx.Commit()
}
