package store

import (
	"context"
	"database/sql"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/presage-dvm/presage/schema/stored"
	"github.com/presage-dvm/presage/sim/result"
)

// An ingested statistics (sts) file of a real run is its row in
// sts_files, the measured run that the analyzer's computations give
// (ingest/pppa), and what the analyzer's report needs besides (sts_procs,
// sts_warnings, sts_intervals, sts_matrix_sums of schema/0002_sts.sql).

// StsInfo describes a stored statistics file.
type StsInfo struct {
	ID       int64  `db:"id"`   // sts_files.id
	RunID    int64  `db:"-"`    // the measured run
	Name     string `db:"name"` // file base name without .sts.gz+ / .gz+
	Path     string `db:"path"` // as given to the ingest
	SHA256   string `db:"sha256"`
	Bytes    int64  `db:"bytes"` // size of the file
	Procs    int    `db:"procs"`
	Grid     string `db:"grid"` // e.g. 2x2
	Existing bool   `db:"-"`    // the file was already stored; nothing was written
}

// SaveSts stores the analysis a of the statistics file info (Name, Path,
// SHA256, Bytes) in one transaction: the file's row, its measured run
// a.Run (whose ID and StsID are set) and the report's extras. When the
// store holds a file with the same SHA256 already (a concurrent ingest of
// the same bytes won), that file comes back with Existing set.
func (s *Store) SaveSts(ctx context.Context, info StsInfo, a *stored.StsAnalysis) (StsInfo, error) {
	info.Procs, info.Grid = len(a.Procs), result.GridString(a.Run.Config.Grid)
	insert := func(tx *sqlx.Tx) (StsInfo, error) {
		if err := insertSts(tx, &info, a); err != nil {
			return info, fmt.Errorf("store %s: %w", info.Path, err)
		}
		return info, nil
	}
	lookup := func() (StsInfo, bool, error) { return s.StsBySHA(ctx, info.SHA256) }
	return saveFile(ctx, s, "sts_files", insert, lookup)
}

// StsBySHA returns the stored statistics file whose bytes had the given
// sha256 (in hex), with Existing set, and whether there is one.
func (s *Store) StsBySHA(ctx context.Context, sum string) (StsInfo, bool, error) {
	type stsRow struct {
		StsInfo
		RunID sql.NullInt64 `db:"run_id"` // none if the run was deleted
	}
	row, found, err := getOptional[stsRow](ctx, s.db, `SELECT f.id, f.name, f.path, f.sha256, f.bytes, f.procs, f.grid,
		(SELECT min(r.id) FROM runs r WHERE r.sts_id = f.id AND r.kind = 'measured') AS run_id
		FROM sts_files f WHERE f.sha256 = ?`, sum)
	info := row.StsInfo
	info.RunID, info.Existing = row.RunID.Int64, found
	return info, found, err
}

// insertSts writes the file's row, its run and the report's extras within
// tx and sets info.ID and info.RunID.
func insertSts(tx *sqlx.Tx, info *StsInfo, a *stored.StsAnalysis) error {
	sizes := make([]string, len(a.Grid))
	for i, d := range a.Grid {
		sizes[i] = strconv.FormatInt(d, 10)
	}
	res, err := tx.Exec(`INSERT INTO sts_files(name, path, sha256, bytes, procs, grid, version, platform, ingested_at, grid_sizes, small_buff)
		VALUES (?,?,?,?,?,?,?,?,?,?,?)`,
		info.Name, info.Path, info.SHA256, info.Bytes, info.Procs, info.Grid, a.Version, a.Platform,
		time.Now().UTC().Format(time.RFC3339), strings.Join(sizes, "*"), a.SmallBuff)
	if err != nil {
		return err
	}
	if info.ID, err = res.LastInsertId(); err != nil {
		return err
	}
	for p, pi := range a.Procs {
		if _, err := tx.Exec(`INSERT INTO sts_procs(sts_id, proc, name, test_time, threads) VALUES (?,?,?,?,?)`,
			info.ID, p, pi.Name, pi.TestTime, pi.Threads); err != nil {
			return err
		}
	}
	for k, w := range a.Warnings {
		if _, err := tx.Exec(`INSERT INTO sts_warnings(sts_id, seq, message) VALUES (?,?,?)`, info.ID, k, w); err != nil {
			return err
		}
	}
	a.Run.StsID = info.ID
	if err := saveRun(tx, a.Run, SaveOptions{}); err != nil {
		return err
	}
	info.RunID = a.Run.ID
	return insertStsIntervals(tx, a)
}

// insertStsIntervals writes the interval fields and matrix sums the run
// lacks.
func insertStsIntervals(tx *sqlx.Tx, a *stored.StsAnalysis) error {
	sums := newBatch(tx, `sts_matrix_sums(run_id, interval_id, proc, axis, grp, calls, product, lost)`, 8)
	defer sums.close()
	for k, iv := range a.Run.Intervals {
		x := a.Intervals[k]
		if _, err := tx.Exec(`INSERT INTO sts_intervals(run_id, interval_id, type_code, line_end) VALUES (?,?,?,?)`,
			a.Run.ID, iv.ID, x.TypeCode, x.LineEnd); err != nil {
			return err
		}
		for _, ps := range x.Sums {
			for _, ax := range []struct {
				name string
				sums *[stored.StsGroups][3]float64
			}{{"i", &ps.Rows}, {"j", &ps.Cols}} {
				for g, c := range ax.sums {
					if c == [3]float64{} {
						continue
					}
					if err := sums.add(a.Run.ID, iv.ID, ps.Proc, ax.name, g, c[0], c[1], c[2]); err != nil {
						return err
					}
				}
			}
		}
	}
	return sums.flush()
}
