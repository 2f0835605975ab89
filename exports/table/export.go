package table

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/apache/arrow-go/v18/arrow"
	"golang.org/x/sync/errgroup"
)

// File is one file written by an export.
type File struct {
	Path    string
	Table   string
	SweepID int64
	Rows    int64
	Bytes   int64
}

// Summary tells what an export wrote.
type Summary struct {
	Files []File
	Rows  int64 // over all files
	Bytes int64 // over all files
}

func (s Summary) String() string {
	per := map[string]int64{}
	var names []string
	for _, f := range s.Files {
		if _, ok := per[f.Table]; !ok {
			names = append(names, f.Table)
		}
		per[f.Table] += f.Rows
	}
	parts := make([]string, len(names))
	for i, n := range names {
		parts[i] = fmt.Sprintf("%s=%d", n, per[n])
	}
	return fmt.Sprintf("%d files, %d rows (%s), %d bytes", len(s.Files), s.Rows, strings.Join(parts, " "), s.Bytes)
}

// BatchWriter writes the record batches of one file of a given format.
type BatchWriter interface {
	Write(arrow.RecordBatch) error
	Close() error // finishes the file (footer); does not close the io.Writer
}

// Format is a file format of the exports.
type Format struct {
	Ext string // file extension: parquet, arrow, csv
	// New starts a file of table t for one sweep on w.
	New func(w io.Writer, t Table, sweepID int64) (BatchWriter, error)
}

// ExportOptions say what Export writes.
type ExportOptions struct {
	SweepID   int64   // 0 = every sweep, runs outside sweeps under sweep_id=0
	Tables    []Table // nil = Exported()
	BatchRows int     // rows per record batch; 0 = DefaultBatchRows
	// Progress, when set, is called after every batch written with the
	// rows written so far, for a progress bar; one call at a time, though
	// two files are written at once.
	Progress func(rows int64)
}

// Export writes every table of opt.Tables for the sweeps selected by
// opt.SweepID into dir, one file per table and sweep at PartPath,
// streaming opt.BatchRows rows at a time. Files of an earlier export at
// the same paths are replaced; other files are left alone, so a directory
// that readers glob should be new or emptied first. Two files are written
// at once: a small table's file (the wide one reads every value to pivot
// them) is read while the values file is encoded.
func Export(ctx context.Context, src Source, dir string, opt ExportOptions, f Format) (Summary, error) {
	var sum Summary
	sweeps, err := src.ExportSweeps(ctx, opt.SweepID)
	if err != nil {
		return sum, err
	}
	tables := opt.Tables
	if tables == nil {
		tables = Exported()
	}
	type part struct {
		t       Table
		sweepID int64
	}
	var parts []part
	for _, t := range tables {
		ids := sweeps
		if t.Static {
			ids = []int64{-1}
		}
		for _, s := range ids {
			parts = append(parts, part{t, s})
		}
	}
	// The files' writers report their batches; opt.Progress hears them
	// one at a time, as it would from one writer.
	var mu sync.Mutex
	var written int64 // rows, over all files
	progress := func(rows int64) {
		mu.Lock()
		defer mu.Unlock()
		if written += rows; opt.Progress != nil {
			opt.Progress(written)
		}
	}
	files := make([]File, len(parts))
	g, ctx := errgroup.WithContext(ctx)
	g.SetLimit(2)
	for i, p := range parts {
		g.Go(func() (err error) {
			files[i], err = exportOne(ctx, src, dir, p.t, p.sweepID, opt.BatchRows, f, progress)
			return err
		})
	}
	if err := g.Wait(); err != nil {
		return sum, err
	}
	for _, file := range files {
		sum.Files = append(sum.Files, file)
		sum.Rows += file.Rows
		sum.Bytes += file.Bytes
	}
	return sum, nil
}

// exportOne writes the file of table t for one sweep, calling progress
// with the rows of every batch written.
func exportOne(ctx context.Context, src Source, dir string, t Table, sweepID int64, batchRows int, f Format, progress func(rows int64)) (File, error) {
	path := PartPath(dir, t.Name, sweepID, f.Ext)
	file := File{Path: path, Table: t.Name, SweepID: sweepID}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return file, err
	}
	out, err := os.Create(path)
	if err != nil {
		return file, err
	}
	fail := func(err error) (File, error) {
		out.Close()
		os.Remove(path)
		return file, fmt.Errorf("export %s: %w", path, err)
	}
	// The buffer also hides out's Close from format writers that close
	// their sink.
	buf := bufio.NewWriterSize(out, 1<<20)
	bw, err := f.New(buf, t, sweepID)
	if err != nil {
		return fail(err)
	}
	file.Rows, err = Stream(ctx, src, t, sweepID, batchRows, func(rec arrow.RecordBatch) error {
		if err := bw.Write(rec); err != nil {
			return err
		}
		progress(rec.NumRows())
		return nil
	})
	if err != nil {
		bw.Close()
		return fail(err)
	}
	if err := bw.Close(); err != nil {
		return fail(err)
	}
	if err := buf.Flush(); err != nil {
		return fail(err)
	}
	st, err := out.Stat()
	if err != nil {
		return fail(err)
	}
	file.Bytes = st.Size()
	if err := out.Close(); err != nil {
		return fail(err)
	}
	return file, nil
}
