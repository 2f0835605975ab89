package store

import (
	"context"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/presage-dvm/presage/orders/calibration"
)

// CalibrationInfo describes a stored calibration file (stage 2 of the
// orders-based technology).
type CalibrationInfo struct {
	ID         int64  `db:"id"`
	Name       string `db:"name"`
	Path       string `db:"path"`
	SHA256     string `db:"sha256"`
	Bytes      int64  `db:"bytes"`
	Rows       int    `db:"rows"`
	IngestedAt string `db:"ingested_at"`
	Existing   bool   `db:"-"` // stored already, nothing written
}

const calibrationColumns = `id, name, path, sha256, bytes, rows, ingested_at`

// SaveCalibration stores a calibration file's rows and their analysis per
// block and machine in one transaction. When the store holds a file with
// the same SHA256 already, that one comes back with Existing set.
func (s *Store) SaveCalibration(ctx context.Context, info CalibrationInfo, rows []calibration.Row, stats []calibration.Stat) (CalibrationInfo, error) {
	info.Rows = len(rows)
	if info.IngestedAt == "" {
		info.IngestedAt = time.Now().UTC().Format(time.RFC3339)
	}
	insert := func(tx *sqlx.Tx) (CalibrationInfo, error) {
		res, err := tx.ExecContext(ctx, `INSERT INTO calibrations(name, path, sha256, bytes, rows, ingested_at)
			VALUES (?, ?, ?, ?, ?, ?)`, info.Name, info.Path, info.SHA256, info.Bytes, info.Rows, info.IngestedAt)
		if err != nil {
			return info, fmt.Errorf("store calibration %s: %w", info.Path, err)
		}
		if info.ID, err = res.LastInsertId(); err != nil {
			return info, err
		}
		rowBatch := newBatch(tx, `calibration_rows(calibration_id, row, block, alpha, f, seconds, machine, rep, copies, wall, cpu, faults)`, 12)
		defer rowBatch.close()
		for i, r := range rows {
			if err := rowBatch.add(info.ID, i+1, r.Block, formatAlpha(r.Alpha), r.F, r.Seconds, r.Machine, r.Rep, max(r.Copies, 1), r.Wall, max(r.CPU, -1), r.Faults); err != nil {
				return info, err
			}
		}
		if err := rowBatch.flush(); err != nil {
			return info, err
		}
		for _, st := range stats {
			var slope, bound any
			if !math.IsNaN(st.Slope) {
				slope = st.Slope
			}
			if b := st.Bound(); !math.IsInf(b, 1) {
				bound = b
			}
			if _, err := tx.ExecContext(ctx, `INSERT INTO calibration_blocks(calibration_id, block, machine, runs,
				c_mean, c_sd, c_cv, noise, slope, flags, loaded, slowdown, bound, spread, cpu_spread)
				VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
				info.ID, st.Block, st.Machine, st.Runs, st.Mean, st.StdDev, st.CV, st.Noise, slope, st.Flags.String(),
				st.Loaded, formatSlowdown(st.Slowdown), bound, st.Spread(), st.CPUSpread()); err != nil {
				return info, fmt.Errorf("store calibration %s: block %s: %w", info.Path, st.Block, err)
			}
		}
		return info, nil
	}
	lookup := func() (CalibrationInfo, bool, error) { return s.CalibrationBySHA(ctx, info.SHA256) }
	return saveFile(ctx, s, "calibrations", insert, lookup)
}

// formatAlpha writes a block's parameters as the calibration file does:
// ';'-separated numbers.
func formatAlpha(alpha []float64) string {
	parts := make([]string, len(alpha))
	for i, a := range alpha {
		parts[i] = strconv.FormatFloat(a, 'g', -1, 64)
	}
	return strings.Join(parts, ";")
}

// formatSlowdown writes a block's slowdown as "copies:s" pairs separated
// by spaces, "" for none.
func formatSlowdown(sl []calibration.SlowdownPoint) string {
	parts := make([]string, len(sl))
	for i, p := range sl {
		parts[i] = fmt.Sprintf("%d:%.4g", p.Copies, p.S)
	}
	return strings.Join(parts, " ")
}

// CalibrationBySHA returns the stored calibration whose file had the given
// sha256, with Existing set, and whether there is one.
func (s *Store) CalibrationBySHA(ctx context.Context, sum string) (CalibrationInfo, bool, error) {
	info, found, err := getOptional[CalibrationInfo](ctx, s.db, `SELECT `+calibrationColumns+` FROM calibrations WHERE sha256 = ?`, sum)
	info.Existing = found
	return info, found, err
}

// Calibration returns the stored calibration called name (the latest of
// that name) or numbered name, with its rows in file order. The error of
// an unknown calibration wraps ErrNotFound.
func (s *Store) Calibration(name string) (CalibrationInfo, []calibration.Row, error) {
	var info CalibrationInfo
	found, err := s.getByNameOrID(&info, "calibrations", calibrationColumns, name)
	if err != nil {
		return info, nil, err
	}
	if !found {
		return info, nil, s.missing("calibrations", "calibration", "calibration", name)
	}
	var saved []struct {
		Block   string  `db:"block"`
		Alpha   string  `db:"alpha"`
		F       float64 `db:"f"`
		Seconds float64 `db:"seconds"`
		Machine string  `db:"machine"`
		Rep     int     `db:"rep"`
		Copies  int     `db:"copies"`
		Wall    float64 `db:"wall"`
		CPU     int     `db:"cpu"`
		Faults  int     `db:"faults"`
	}
	if err := s.db.Select(&saved, `SELECT block, alpha, f, seconds, machine, rep, copies, wall, cpu, faults FROM calibration_rows
		WHERE calibration_id = ? ORDER BY row`, info.ID); err != nil {
		return info, nil, err
	}
	rows := make([]calibration.Row, len(saved))
	for i, r := range saved {
		rows[i] = calibration.Row{Block: r.Block, F: r.F, Seconds: r.Seconds, Machine: r.Machine, Rep: r.Rep, Copies: r.Copies, Wall: r.Wall, CPU: r.CPU, Faults: r.Faults}
		for _, a := range strings.Split(r.Alpha, ";") {
			if a == "" {
				continue
			}
			v, err := strconv.ParseFloat(a, 64)
			if err != nil {
				return info, nil, fmt.Errorf("calibration %s, row %d: alpha %q: %w", info.Name, i+1, r.Alpha, err)
			}
			rows[i].Alpha = append(rows[i].Alpha, v)
		}
	}
	return info, rows, nil
}
