// Package extrap exports the interval values of a store as Extra-P JSON
// Lines, the input of the Extra-P performance modeller: one JSON object
// per line,
//
//	{"params":{"procs":4,"grid_d1":2,"grid_d2":2},"callpath":"Main->Par@jac.fdv:14","metric":"Execution_time","value":0.25}
//
// one file per sweep, program and combination of the attributes that are
// not numbers (<dir>/sweep_id=3/<program>.jsonl, or
// <program>.network=bus.rank=2.jsonl when the network and the grid's rank
// vary), so that each file is one Extra-P experiment whose parameters are
// exactly what varies in it, and lines with equal parameters are true
// repetitions (params.go says how; Write refuses to make a repetition of
// two different configurations). Start-up time and time per byte are in
// microseconds.
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
	"github.com/presage-dvm/presage/schema/stored"
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
	RunRows(ctx context.Context, sweepID int64, fn func(*stored.RunRow) error) error
	IntervalValues(ctx context.Context, sweepID int64, program string, fn func(stored.IntervalValue) error) error
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
			files, err := writeProgram(ctx, src, outDir, s, p, byProgram[p])
			if err != nil {
				return sum, err
			}
			for _, f := range files {
				sum.Files = append(sum.Files, f)
				sum.Rows += f.Rows
				sum.Bytes += f.Bytes
			}
		}
	}
	return sum, nil
}

// programRuns returns the runs of a sweep by program, in id order.
func programRuns(ctx context.Context, src Source, sweepID int64) (map[string][]*stored.RunRow, error) {
	out := map[string][]*stored.RunRow{}
	err := src.RunRows(ctx, sweepID, func(r *stored.RunRow) error {
		c := *r
		out[r.Program] = append(out[r.Program], &c)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("extrap: sweep %d: %w", sweepID, err)
	}
	return out, nil
}

// Path is the file of a sweep's program in an export directory; suffix
// names the fixed attributes that tell the program's files apart
// ("network=bus.rank=2"), "" when it has one file.
func Path(dir string, sweepID int64, program, suffix string) string {
	name := program
	if suffix != "" {
		name += "." + suffix
	}
	name = strings.Map(func(r rune) rune {
		if r == '/' || r == '\\' || r == 0 {
			return '_'
		}
		return r
	}, name)
	return filepath.Join(dir, "sweep_id="+strconv.FormatInt(sweepID, 10), name+".jsonl")
}

// output is one file being written.
type output struct {
	file table.File
	f    *os.File
	cw   *countingWriter
	lw   *lineWriter
}

// writeProgram writes the files of one program of a sweep, streaming its
// interval values once and routing each to its run's file.
func writeProgram(ctx context.Context, src Source, dir string, sweepID int64, program string, runs []*stored.RunRow) (files []table.File, err error) {
	params := map[int64]string{}
	outOf := map[int64]*output{}
	var outs []*output
	defer func() {
		for _, o := range outs {
			if cerr := o.f.Close(); err == nil {
				err = cerr
			}
		}
		if err != nil {
			for _, o := range outs {
				os.Remove(o.file.Path)
			}
			files = nil
		}
	}()
	for _, g := range groupRuns(runs) {
		path := Path(dir, sweepID, program, g.suffix)
		enc, err := g.encodeParams(g.params())
		if err != nil {
			return nil, fmt.Errorf("extrap %s: %w", path, err)
		}
		o, err := create(path, sweepID)
		if err != nil {
			return nil, err
		}
		outs = append(outs, o)
		for _, r := range g.runs {
			params[r.ID], outOf[r.ID] = enc[r.ID], o
		}
	}
	err = src.IntervalValues(ctx, sweepID, program, func(v stored.IntervalValue) error {
		if math.IsInf(v.Value, 0) || math.IsNaN(v.Value) {
			return nil // JSON cannot carry them
		}
		o, ok := outOf[v.RunID]
		if !ok {
			return fmt.Errorf("run %d: no configuration", v.RunID)
		}
		o.file.Rows++
		return o.lw.line(params[v.RunID], v.Path, v.Characteristic, v.Value)
	})
	if err != nil {
		return nil, fmt.Errorf("extrap: sweep %d, %s: %w", sweepID, program, err)
	}
	for _, o := range outs {
		if err := o.lw.flush(); err != nil {
			return nil, fmt.Errorf("extrap %s: %w", o.file.Path, err)
		}
		o.file.Bytes = o.cw.n
		files = append(files, o.file)
	}
	return files, nil
}

func create(path string, sweepID int64) (*output, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, err
	}
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	cw := &countingWriter{w: f}
	return &output{file: table.File{Path: path, Table: "extrap", SweepID: sweepID}, f: f, cw: cw, lw: newLineWriter(cw)}, nil
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
