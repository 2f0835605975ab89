// Package stsdb owns the ingestion of measured statistics (sts) files into
// the store: the file's row in sts_files, the measured run the analyzer's
// computations give (ingest/pppa), and what the analyzer's report needs
// besides (sts_procs, sts_warnings of schema/0002_sts.sql), all in one
// transaction and deduplicated by the file's sha256.
package stsdb

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/presage-dvm/presage/ingest/filestore"
	"github.com/presage-dvm/presage/ingest/pppa"
	"github.com/presage-dvm/presage/ingest/sts"
	"github.com/presage-dvm/presage/sim/result"
)

// Info describes an ingested sts file.
type Info struct {
	ID       int64  // sts_files.id
	RunID    int64  // the measured run
	Name     string // file base name without .sts.gz+ / .gz+
	Procs    int
	Grid     string // e.g. 2x2
	Existing bool   // the file was already stored; nothing was written
}

// Ingest reads the sts file at path, analyses it and stores it. A file
// whose bytes are already stored is not read again: its Info comes back
// with Existing set.
func Ingest(ctx context.Context, db *sqlx.DB, path string) (Info, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return Info{}, err
	}
	digest := filestore.Sum(raw)
	if info, ok, err := existing(ctx, db, digest); err != nil || ok {
		return info, err
	}
	f, err := sts.Decode(bytes.NewReader(raw), path)
	if err != nil {
		return Info{}, err
	}
	name := Name(path)
	a, err := pppa.Analyze(f, name)
	if err != nil {
		return Info{}, err
	}
	tx, err := db.BeginTxx(ctx, nil)
	if err != nil {
		return Info{}, err
	}
	defer tx.Rollback()
	info, err := store(tx, path, name, digest, int64(len(raw)), f, a)
	if err != nil {
		return Info{}, fmt.Errorf("store %s: %w", path, err)
	}
	return info, tx.Commit()
}

// Name is the file's base name without its .sts.gz+ or .gz+ suffix.
func Name(path string) string { return filestore.Name(path, ".gz+", ".sts") }

// existing finds a stored file by its digest.
func existing(ctx context.Context, db *sqlx.DB, digest string) (Info, bool, error) {
	type stored struct {
		ID    int64         `db:"id"`
		Name  string        `db:"name"`
		Procs int           `db:"procs"`
		Grid  string        `db:"grid"`
		RunID sql.NullInt64 `db:"run_id"`
	}
	row, found, err := filestore.Find[stored](ctx, db, `SELECT f.id, f.name, f.procs, f.grid,
		(SELECT min(r.id) FROM runs r WHERE r.sts_id = f.id AND r.kind = 'measured') AS run_id
		FROM sts_files f WHERE f.sha256 = ?`, digest)
	if err != nil || !found {
		return Info{}, false, err
	}
	return Info{ID: row.ID, RunID: row.RunID.Int64, Name: row.Name, Procs: row.Procs, Grid: row.Grid, Existing: true}, true, nil
}

// store writes the file, its run and the report's extras within tx.
func store(tx *sqlx.Tx, path, name, digest string, size int64, f *sts.File, a *pppa.Analysis) (Info, error) {
	grid := result.GridString(a.Run.Config.Grid)
	sizes := make([]string, len(a.Grid))
	for i, d := range a.Grid {
		sizes[i] = strconv.FormatInt(d, 10)
	}
	res, err := tx.Exec(`INSERT INTO sts_files(name, path, sha256, bytes, procs, grid, version, platform, ingested_at, grid_sizes, small_buff)
		VALUES (?,?,?,?,?,?,?,?,?,?,?)`,
		name, path, digest, size, len(f.Procs), grid, a.Version, a.Platform,
		time.Now().UTC().Format(time.RFC3339), strings.Join(sizes, "*"), a.SmallBuff)
	if err != nil {
		return Info{}, err
	}
	id, err := res.LastInsertId()
	if err != nil {
		return Info{}, err
	}
	for p, pi := range a.Procs {
		if _, err := tx.Exec(`INSERT INTO sts_procs(sts_id, proc, name, test_time, threads) VALUES (?,?,?,?,?)`,
			id, p, pi.Name, pi.TestTime, pi.Threads); err != nil {
			return Info{}, err
		}
	}
	for k, w := range a.Warnings {
		if _, err := tx.Exec(`INSERT INTO sts_warnings(sts_id, seq, message) VALUES (?,?,?)`, id, k, w); err != nil {
			return Info{}, err
		}
	}
	a.Run.StsID = id
	if err := result.Save(tx, a.Run, result.SaveOptions{}); err != nil {
		return Info{}, err
	}
	if err := storeIntervals(tx, a); err != nil {
		return Info{}, err
	}
	return Info{ID: id, RunID: a.Run.ID, Name: name, Procs: len(f.Procs), Grid: grid}, nil
}

// storeIntervals writes the interval fields and matrix sums the run lacks.
func storeIntervals(tx *sqlx.Tx, a *pppa.Analysis) error {
	sums, err := tx.Preparex(`INSERT INTO sts_matrix_sums(run_id, interval_id, proc, axis, grp, calls, product, lost)
		VALUES (?,?,?,?,?,?,?,?)`)
	if err != nil {
		return err
	}
	defer sums.Close()
	for k, iv := range a.Run.Intervals {
		x := a.Intervals[k]
		if _, err := tx.Exec(`INSERT INTO sts_intervals(run_id, interval_id, type_code, line_end) VALUES (?,?,?,?)`,
			a.Run.ID, iv.ID, x.TypeCode, x.LineEnd); err != nil {
			return err
		}
		for _, ps := range x.Sums {
			for axis, m := range map[string]*[sts.Groups][3]float64{"i": &ps.Rows, "j": &ps.Cols} {
				for g, c := range m {
					if c == [3]float64{} {
						continue
					}
					if _, err := sums.Exec(a.Run.ID, iv.ID, ps.Proc, axis, g, c[0], c[1], c[2]); err != nil {
						return err
					}
				}
			}
		}
	}
	return nil
}
