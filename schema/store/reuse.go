package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/presage-dvm/presage/sim/result"
)

// A sweep or a search reuses what the store knows: a configuration
// predicted already — by predict, or by another sweep — is copied into
// the sweep at its position instead of being simulated again. The
// simulator is a pure function of the trace, the machine and the
// configuration, so the copy is the run it would make.

// OutsideSweeps asks PredictionLike for the runs of no sweep.
const OutsideSweeps int64 = -1

// PredictionLike returns the latest predicted run of trace on machine
// with configuration c (its network named as the simulator names it) and
// simulator options opts, outside sweep (another sweep's, or none's), or
// of no sweep when sweep is OutsideSweeps; and whether there is one.
func (s *Store) PredictionLike(ctx context.Context, sweep, trace, machine int64, c result.Config, opts string) (int64, bool, error) {
	var id int64
	err := s.db.GetContext(ctx, &id, `SELECT id FROM runs WHERE kind = 'predicted' AND trace_id = ? AND machine_id = ?
		AND grid = ? AND network IS ? AND tstart_us IS ? AND tbyte_us IS ? AND power IS ? AND options = ?
		AND CASE WHEN ? = -1 THEN sweep_id IS NULL ELSE sweep_id IS NOT ? END ORDER BY id DESC LIMIT 1`,
		trace, machine, result.GridString(c.Grid), nullString(c.Network), nullZero(result.Micros(c.TStart)),
		nullZero(result.Micros(c.TByte)), nullZero(c.Power), opts, sweep, sweep)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, false, nil
	}
	return id, err == nil, err
}

// runChildren are the tables of a DVM run's rows, copied with it; the
// per-processor ones only for runs of at most SaveOptions.PerProcMax
// processors, as SaveSweepRun writes them.
var runChildren = []struct {
	table   string
	perProc bool
}{
	{"intervals", false}, {"interval_values", false}, {"interval_stats", true},
	{"interval_proc_series", true}, {"interval_proc_classes", true}, {"run_warnings", false},
}

// CopySweepRun copies run from into sweep at position index, in one
// transaction, as SaveSweepRun stores a simulated one (its picture, which
// the runs of sweeps do not store, is left out). copied is false when
// another process stored the position first, or when the sweep wants the
// per-processor rows that run from was stored without (a sweep of a
// lower PerProcMax made it): the configuration is then simulated.
func (s *Store) CopySweepRun(ctx context.Context, from, sweep int64, index int, opt SaveOptions) (copied bool, err error) {
	err = s.update(ctx, func(tx *sqlx.Tx) error {
		if taken, err := positionTaken(tx, sweep, index); err != nil || taken {
			return err
		}
		var src struct {
			Procs   int  `db:"procs"`
			PerProc bool `db:"per_proc"`
		}
		if err := tx.Get(&src, `SELECT procs, EXISTS (SELECT 1 FROM interval_proc_series WHERE run_id = ?) AS per_proc
			FROM runs WHERE id = ?`, from, from); err != nil {
			return err
		}
		perProc := opt.PerProcMax == 0 || src.Procs <= opt.PerProcMax
		if perProc && !src.PerProc {
			return nil
		}
		cols, err := tableColumns(tx, "runs", "id", "sweep_id", "sweep_index", "created_at")
		if err != nil {
			return err
		}
		list := strings.Join(cols, ", ")
		res, err := tx.ExecContext(ctx, fmt.Sprintf(`INSERT INTO runs(%s, sweep_id, sweep_index, created_at)
			SELECT %s, ?, ?, ? FROM runs WHERE id = ?`, list, list), sweep, index, time.Now().UTC().Format(time.RFC3339), from)
		if err != nil {
			return err
		}
		to, err := res.LastInsertId()
		if err != nil {
			return err
		}
		for _, t := range runChildren {
			if t.perProc && !perProc {
				continue
			}
			cols, err := tableColumns(tx, t.table, "run_id")
			if err != nil {
				return err
			}
			list := strings.Join(cols, ", ")
			if _, err := tx.ExecContext(ctx, fmt.Sprintf(`INSERT INTO %s(run_id, %s) SELECT ?, %s FROM %s WHERE run_id = ?`,
				t.table, list, list, t.table), to, from); err != nil {
				return fmt.Errorf("copy run %d: %s: %w", from, t.table, err)
			}
		}
		copied = true
		return nil
	})
	return copied, err
}

// tableColumns lists the columns of table but those left out.
func tableColumns(tx *sqlx.Tx, table string, leftOut ...string) ([]string, error) {
	var all []string
	if err := tx.Select(&all, `SELECT name FROM pragma_table_info(?) ORDER BY cid`, table); err != nil {
		return nil, err
	}
	var cols []string
	for _, c := range all {
		if !slices.Contains(leftOut, c) {
			cols = append(cols, c)
		}
	}
	return cols, nil
}
