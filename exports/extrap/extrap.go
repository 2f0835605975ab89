// Package extrap exports the interval values of a store as Extra-P JSON
// Lines, the input of the Extra-P performance modeller: one JSON object
// per line,
//
//	{"params":{"procs":4,"grid_d1":2,"grid_d2":2},"callpath":"Main->Par@jac.fdv:14","metric":"Execution_time","value":0.25}
//
// one file per sweep and program (<dir>/sweep_id=3/<program>.jsonl), so
// that each file is one Extra-P experiment. Runs with equal parameters
// become repetitions of one measurement point.
package extrap

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/jmoiron/sqlx"

	"github.com/presage-dvm/presage/exports/table"
)

// Options select what is exported.
type Options struct {
	SweepID int64 // 0 = every sweep, runs outside sweeps under sweep_id=0
}

// Summary tells what was written.
type Summary = table.Summary

// Write exports the interval values of db into outDir.
func Write(ctx context.Context, db *sqlx.DB, outDir string, opt Options) (Summary, error) {
	var sum Summary
	sweeps, err := table.Sweeps(ctx, db, opt.SweepID)
	if err != nil {
		return sum, err
	}
	for _, s := range sweeps {
		var programs []string
		if err := db.SelectContext(ctx, &programs, `SELECT DISTINCT program FROM v_runs WHERE sweep_id = ? ORDER BY program`, s); err != nil {
			return sum, err
		}
		for _, p := range programs {
			f, err := writeFile(ctx, db, outDir, s, p)
			if err != nil {
				return sum, err
			}
			sum.Files = append(sum.Files, f)
			sum.Rows += f.Rows
			sum.Bytes += f.Bytes
		}
	}
	return sum, nil
}

// Path is the file of a sweep's program in an export directory.
func Path(dir string, sweepID int64, program string) string {
	name := strings.Map(func(r rune) rune {
		if r == '/' || r == '\\' || r == 0 {
			return '_'
		}
		return r
	}, program)
	return filepath.Join(dir, "sweep_id="+strconv.FormatInt(sweepID, 10), name+".jsonl")
}

func writeFile(ctx context.Context, db *sqlx.DB, dir string, sweepID int64, program string) (table.File, error) {
	path := Path(dir, sweepID, program)
	f := table.File{Path: path, Table: "extrap", SweepID: sweepID}
	params, err := runParams(ctx, db, sweepID, program)
	if err != nil {
		return f, err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return f, err
	}
	out, err := os.Create(path)
	if err != nil {
		return f, err
	}
	cw := &countingWriter{w: out}
	f.Rows, err = writeLines(ctx, db, cw, sweepID, program, params)
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(path)
		return f, fmt.Errorf("extrap %s: %w", path, err)
	}
	f.Bytes = cw.n
	return f, nil
}

// runParams returns each run's "params" object, pre-encoded. A parameter
// is included only when every run of the file has it, because Extra-P
// takes the parameter names from the first line and requires them on
// every line.
func runParams(ctx context.Context, db *sqlx.DB, sweepID int64, program string) (map[int64]string, error) {
	type run struct {
		ID     int64 `db:"run_id"`
		Procs  int64 `db:"procs"`
		Rank   int   `db:"grid_rank"`
		D      [4]sql.NullInt64
		TStart sql.NullFloat64 `db:"tstart"`
		TByte  sql.NullFloat64 `db:"tbyte"`
		Power  sql.NullFloat64 `db:"power"`
	}
	rows, err := db.QueryContext(ctx, `SELECT run_id, procs, grid_rank, grid_d1, grid_d2, grid_d3, grid_d4,
		tstart, tbyte, power FROM v_runs WHERE sweep_id = ? AND program = ? ORDER BY run_id`, sweepID, program)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var runs []run
	for rows.Next() {
		var r run
		if err := rows.Scan(&r.ID, &r.Procs, &r.Rank, &r.D[0], &r.D[1], &r.D[2], &r.D[3], &r.TStart, &r.TByte, &r.Power); err != nil {
			return nil, err
		}
		runs = append(runs, r)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	rank, tstart, tbyte, power := 4, true, true, true
	for _, r := range runs {
		if r.Rank != runs[0].Rank {
			rank = 0 // grids of different ranks: only procs is comparable
		}
		rank = min(rank, r.Rank)
		tstart = tstart && r.TStart.Valid
		tbyte = tbyte && r.TByte.Valid
		power = power && r.Power.Valid
	}
	out := make(map[int64]string, len(runs))
	for _, r := range runs {
		var b strings.Builder
		b.WriteString(`{"procs":` + strconv.FormatInt(r.Procs, 10))
		for d := 0; d < rank; d++ {
			fmt.Fprintf(&b, `,"grid_d%d":%d`, d+1, r.D[d].Int64)
		}
		for _, p := range []struct {
			name string
			on   bool
			v    sql.NullFloat64
		}{{"tstart", tstart, r.TStart}, {"tbyte", tbyte, r.TByte}, {"power", power, r.Power}} {
			if p.on {
				b.WriteString(`,"` + p.name + `":` + strconv.FormatFloat(p.v.Float64, 'g', -1, 64))
			}
		}
		b.WriteString("}")
		out[r.ID] = b.String()
	}
	return out, nil
}

// writeLines streams the interval-level values (not the per-processor
// ones) as JSON lines. Non-finite values, which JSON cannot carry, are
// left out.
func writeLines(ctx context.Context, db *sqlx.DB, w io.Writer, sweepID int64, program string, params map[int64]string) (int64, error) {
	lw := newLineWriter(w)
	var n int64
	err := table.ForEachIntervalValue(ctx, db, sweepID, program, func(v table.IntervalValue) error {
		if math.IsInf(v.Value, 0) || math.IsNaN(v.Value) {
			return nil
		}
		p, ok := params[v.RunID]
		if !ok {
			return fmt.Errorf("run %d: no configuration", v.RunID)
		}
		n++
		return lw.line(p, v.Path, v.Characteristic, v.Value)
	})
	if err != nil {
		return n, err
	}
	return n, lw.flush()
}

type lineWriter struct {
	w   io.Writer
	buf []byte
}

func newLineWriter(w io.Writer) *lineWriter { return &lineWriter{w: w} }

func (lw *lineWriter) line(params, path, metric string, v float64) error {
	b := lw.buf
	b = append(b, `{"params":`...)
	b = append(b, params...)
	b = append(b, `,"callpath":`...)
	b = appendJSONString(b, path)
	b = append(b, `,"metric":`...)
	b = appendJSONString(b, metric)
	b = append(b, `,"value":`...)
	b = strconv.AppendFloat(b, v, 'g', -1, 64)
	b = append(b, "}\n"...)
	lw.buf = b
	if len(b) >= 1<<16 {
		return lw.flush()
	}
	return nil
}

func (lw *lineWriter) flush() error {
	_, err := lw.w.Write(lw.buf)
	lw.buf = lw.buf[:0]
	return err
}

func appendJSONString(b []byte, s string) []byte {
	q, _ := json.Marshal(s) // a string always marshals
	return append(b, q...)
}

type countingWriter struct {
	w io.Writer
	n int64
}

func (c *countingWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}
