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
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/presage-dvm/presage/exports/table"
	"github.com/presage-dvm/presage/schema/store"
)

// Options select what is exported.
type Options struct {
	SweepID int64 // 0 = every sweep, runs outside sweeps under sweep_id=0
}

// Summary tells what was written.
type Summary = table.Summary

// Source is what the export reads: *store.Store is one.
type Source interface {
	ExportSweeps(ctx context.Context, only int64) ([]int64, error)
	RunRows(ctx context.Context, sweepID int64, fn func(*store.RunRow) error) error
	IntervalValues(ctx context.Context, sweepID int64, program string, fn func(store.IntervalValue) error) error
}

// Write exports the interval values of src into outDir.
func Write(ctx context.Context, src Source, outDir string, opt Options) (Summary, error) {
	var sum Summary
	sweeps, err := src.ExportSweeps(ctx, opt.SweepID)
	if err != nil {
		return sum, err
	}
	for _, s := range sweeps {
		byProgram, err := programRuns(ctx, src, s)
		if err != nil {
			return sum, err
		}
		for _, p := range slices.Sorted(maps.Keys(byProgram)) {
			f, err := writeFile(ctx, src, outDir, s, p, runParams(byProgram[p]))
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

// programRuns returns the runs of a sweep by program, in id order.
func programRuns(ctx context.Context, src Source, sweepID int64) (map[string][]store.RunRow, error) {
	out := map[string][]store.RunRow{}
	err := src.RunRows(ctx, sweepID, func(r *store.RunRow) error {
		out[r.Program] = append(out[r.Program], *r)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("extrap: sweep %d: %w", sweepID, err)
	}
	return out, nil
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

func writeFile(ctx context.Context, src Source, dir string, sweepID int64, program string, params map[int64]string) (table.File, error) {
	path := Path(dir, sweepID, program)
	f := table.File{Path: path, Table: "extrap", SweepID: sweepID}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return f, err
	}
	out, err := os.Create(path)
	if err != nil {
		return f, err
	}
	cw := &countingWriter{w: out}
	f.Rows, err = writeLines(ctx, src, cw, sweepID, program, params)
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
func runParams(runs []store.RunRow) map[int64]string {
	rank, tstart, tbyte, power := 4, true, true, true
	for _, r := range runs {
		if r.GridRank != runs[0].GridRank {
			rank = 0 // grids of different ranks: only procs is comparable
		}
		rank = min(rank, int(r.GridRank))
		tstart = tstart && r.TStart.Valid
		tbyte = tbyte && r.TByte.Valid
		power = power && r.Power.Valid
	}
	out := make(map[int64]string, len(runs))
	for _, r := range runs {
		var b strings.Builder
		b.WriteString(`{"procs":` + strconv.FormatInt(r.Procs, 10))
		dims := [4]int64{r.GridD1, r.GridD2.V, r.GridD3.V, r.GridD4.V}
		for d := 0; d < rank; d++ {
			fmt.Fprintf(&b, `,"grid_d%d":%d`, d+1, dims[d])
		}
		for _, p := range []struct {
			name string
			on   bool
			v    store.Null[float64]
		}{{"tstart", tstart, r.TStart}, {"tbyte", tbyte, r.TByte}, {"power", power, r.Power}} {
			if p.on {
				b.WriteString(`,"` + p.name + `":` + strconv.FormatFloat(p.v.V, 'g', -1, 64))
			}
		}
		b.WriteString("}")
		out[r.ID] = b.String()
	}
	return out
}

// writeLines streams the interval-level values (not the per-processor
// ones) as JSON lines. Non-finite values, which JSON cannot carry, are
// left out.
func writeLines(ctx context.Context, src Source, w io.Writer, sweepID int64, program string, params map[int64]string) (int64, error) {
	lw := newLineWriter(w)
	var n int64
	err := src.IntervalValues(ctx, sweepID, program, func(v store.IntervalValue) error {
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
