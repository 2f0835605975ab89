package sweep

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/presage-dvm/presage/sim/result"
)

// ensureSweep returns the id of the sweep with the definition's hash,
// creating its row when the store has none.
func ensureSweep(ctx context.Context, db *sqlx.DB, p *Plan, command string) (int64, error) {
	hash := p.Def.Hash()
	var id int64
	err := db.GetContext(ctx, &id, `SELECT id FROM sweeps WHERE def_hash = ?`, hash)
	if err == nil {
		return id, nil
	}
	if !errors.Is(err, sql.ErrNoRows) {
		return 0, fmt.Errorf("find sweep: %w", err)
	}
	def, err := json.Marshal(p.Def)
	if err != nil {
		return 0, err
	}
	res, err := db.ExecContext(ctx, `INSERT INTO sweeps(trace_id, command, created_at, kind, def_hash, definition, configs, skipped)
		VALUES (?,?,?,?,?,?,?,?) ON CONFLICT(def_hash) DO NOTHING`,
		p.Trace.ID, command, time.Now().UTC().Format(time.RFC3339), p.Def.Kind, hash, string(def),
		len(p.Configs), p.Skipped)
	if err != nil {
		return 0, fmt.Errorf("create sweep: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 1 {
		return res.LastInsertId()
	}
	// Another process created it between the two statements.
	err = db.GetContext(ctx, &id, `SELECT id FROM sweeps WHERE def_hash = ?`, hash)
	return id, err
}

// doneIndexes returns the configuration indexes the sweep has stored.
func doneIndexes(ctx context.Context, db *sqlx.DB, sweepID int64) (map[int]bool, error) {
	var idx []int
	if err := db.SelectContext(ctx, &idx, `SELECT sweep_index FROM runs WHERE sweep_id = ? AND sweep_index IS NOT NULL`, sweepID); err != nil {
		return nil, fmt.Errorf("stored configurations of sweep %d: %w", sweepID, err)
	}
	done := make(map[int]bool, len(idx))
	for _, i := range idx {
		done[i] = true
	}
	return done, nil
}

// saveRun stores one finished configuration atomically: the run with all
// its rows and its position in the sweep commit together or not at all.
func saveRun(ctx context.Context, db *sqlx.DB, run *result.Run, index int, opt result.SaveOptions) error {
	tx, err := db.BeginTxx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback() // no-op after Commit
	if err := result.Save(tx, run, opt); err != nil {
		return err
	}
	if _, err := tx.Exec(`UPDATE runs SET sweep_index = ? WHERE id = ?`, index, run.ID); err != nil {
		return fmt.Errorf("save run: %w", err)
	}
	return tx.Commit()
}
