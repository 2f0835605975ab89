package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/presage-dvm/presage/schema/stored"
	"github.com/presage-dvm/presage/sim/result"
)

// EnsureSweep returns the id of the sweep with sw.Hash, creating its row
// when the store has none (several processes may race to create it; one
// row results).
func (s *Store) EnsureSweep(ctx context.Context, sw stored.Sweep) (int64, error) {
	id, _, err := s.EnsureSweepCreated(ctx, sw)
	return id, err
}

// EnsureSweepCreated is EnsureSweep that also reports whether this call
// created the row, which its caller then drops if the sweep fails before
// storing anything (DropEmptySweep).
func (s *Store) EnsureSweepCreated(ctx context.Context, sw stored.Sweep) (id int64, created bool, err error) {
	id, ok, err := s.sweepByHash(ctx, sw.Hash)
	if err != nil || ok {
		return id, false, err
	}
	if sw.CreatedAt == "" {
		sw.CreatedAt = time.Now().UTC().Format(time.RFC3339)
	}
	res, err := s.db.ExecContext(ctx, `INSERT INTO sweeps(trace_id, order_trace_id, command, created_at, kind, def_hash, definition, configs, skipped)
		VALUES (?,?,?,?,?,?,?,?,?) ON CONFLICT(def_hash) DO NOTHING`,
		nullID(sw.TraceID), nullID(sw.OrderTrace), sw.Command, sw.CreatedAt, sw.Kind, sw.Hash, sw.Definition, sw.Configs, sw.Skipped)
	if err != nil {
		return 0, false, fmt.Errorf("create sweep: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 1 {
		id, err := res.LastInsertId()
		return id, err == nil, err
	}
	// Another process created it between the two statements.
	id, _, err = s.sweepByHash(ctx, sw.Hash)
	return id, false, err
}

// DropEmptySweep removes the row of sweep id if no run is stored in it,
// in one statement (a run another process stores meanwhile keeps it), and
// reports whether it did. It runs even when ctx is cancelled: it is what
// a sweep stopped by a signal does last.
func (s *Store) DropEmptySweep(ctx context.Context, id int64) (bool, error) {
	res, err := s.db.ExecContext(context.WithoutCancel(ctx), `DELETE FROM sweeps WHERE id = ? AND NOT EXISTS (SELECT 1 FROM runs WHERE sweep_id = ?)`, id, id)
	if err != nil {
		return false, fmt.Errorf("drop empty sweep %d: %w", id, err)
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

func (s *Store) sweepByHash(ctx context.Context, hash string) (int64, bool, error) {
	var id int64
	err := s.db.GetContext(ctx, &id, `SELECT id FROM sweeps WHERE def_hash = ?`, hash)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, false, nil
	}
	if err != nil {
		return 0, false, fmt.Errorf("find sweep: %w", err)
	}
	return id, true, nil
}

// Sweeps lists the stored sweeps in id order.
func (s *Store) Sweeps(ctx context.Context) ([]stored.Sweep, error) {
	var out []stored.Sweep
	err := s.db.SelectContext(ctx, &out, `SELECT id, coalesce(trace_id, 0) AS trace_id, coalesce(order_trace_id, 0) AS order_trace_id, kind, coalesce(command, '') AS command,
		coalesce(def_hash, '') AS def_hash, definition, configs, skipped, coalesce(created_at, '') AS created_at
		FROM sweeps ORDER BY id`)
	if err != nil {
		return nil, fmt.Errorf("list sweeps: %w", err)
	}
	return out, nil
}

// SweepDone returns the configuration indexes the sweep has stored.
func (s *Store) SweepDone(ctx context.Context, sweepID int64) (map[int]bool, error) {
	var idx []int
	if err := s.db.SelectContext(ctx, &idx, `SELECT sweep_index FROM runs WHERE sweep_id = ? AND sweep_index IS NOT NULL`, sweepID); err != nil {
		return nil, fmt.Errorf("stored configurations of sweep %d: %w", sweepID, err)
	}
	done := make(map[int]bool, len(idx))
	for _, i := range idx {
		done[i] = true
	}
	return done, nil
}

// SaveSweepRun stores one finished configuration of a sweep atomically:
// the run (run.SweepID set) with all its rows and its position index in
// the sweep commit together or not at all. When another process running
// the same sweep stored the position first, nothing is written and stored
// is false.
func (s *Store) SaveSweepRun(ctx context.Context, run *result.Run, index int, opt SaveOptions) (saved bool, err error) {
	err = s.update(ctx, func(tx *sqlx.Tx) error {
		if taken, err := positionTaken(tx, run.SweepID, index); err != nil || taken {
			return err
		}
		if err := saveRun(tx, run, opt); err != nil {
			return err
		}
		if _, err := tx.Exec(`UPDATE runs SET sweep_index = ? WHERE id = ?`, index, run.ID); err != nil {
			return fmt.Errorf("save run: %w", err)
		}
		saved = true
		return nil
	})
	return saved, err
}

// positionTaken reports whether a run holds position index of the sweep
// already: another process running the same sweep stored it first.
func positionTaken(tx *sqlx.Tx, sweepID int64, index int) (bool, error) {
	var n int
	err := tx.Get(&n, `SELECT count(*) FROM runs WHERE sweep_id = ? AND sweep_index = ?`, sweepID, index)
	return n > 0, err
}

// SweepOutcomes returns the stored configurations of a sweep by index.
func (s *Store) SweepOutcomes(ctx context.Context, sweepID int64) (map[int]stored.Outcome, error) {
	var rows []stored.Outcome
	err := s.db.SelectContext(ctx, &rows, `SELECT r.sweep_index, r.id, r.grid, coalesce(r.machine, '') AS machine, r.procs, r.execution_time,
			r.doubtful, `+rootValue("r.id")+` AS efficiency
		FROM runs r WHERE r.sweep_id = ? AND r.sweep_index IS NOT NULL`, int(result.Efficiency), sweepID)
	if err != nil {
		return nil, fmt.Errorf("results of sweep %d: %w", sweepID, err)
	}
	out := make(map[int]stored.Outcome, len(rows))
	for _, r := range rows {
		out[r.Index] = r
	}
	return out, nil
}

// rootValue is the SQL expression of the value of one characteristic (the
// statement's parameter) of the root interval of run runID (a column), 0
// when not stored.
func rootValue(runID string) string { return `coalesce(` + rootValueOrNull(runID) + `, 0)` }

// rootValueOrNull is rootValue with NULL when the value is not stored.
func rootValueOrNull(runID string) string {
	return `(SELECT v.value FROM intervals i JOIN interval_values v ON v.run_id = i.run_id AND v.interval_id = i.id
		WHERE i.run_id = ` + runID + ` AND i.parent IS NULL AND v.char_id = ?)`
}
