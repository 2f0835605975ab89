// Package arrowipc exports a store's tables (exports/table) as Arrow IPC
// files (the random-access "Feather v2" file format), one record batch per
// streamed batch, the store schema version in the schema metadata, with
// the same Hive-style partitions by sweep as the Parquet export
// (values/sweep_id=3/part-0.arrow).
package arrowipc

import (
	"context"
	"io"

	"github.com/apache/arrow-go/v18/arrow/ipc"

	"github.com/presage-dvm/presage/exports/table"
)

// Options select what is exported.
type Options struct {
	SweepID   int64            // 0 = every sweep, runs outside sweeps under sweep_id=0
	Tables    []table.Table    // nil = table.Exported()
	BatchRows int              // rows per record batch; 0 = table.DefaultBatchRows
	Progress  func(rows int64) // table.ExportOptions.Progress
	// Zstd compresses the record batch bodies. Off by default: not every
	// reader supports compressed IPC, and uncompressed files can be
	// memory-mapped.
	Zstd bool
}

// Summary tells what was written.
type Summary = table.Summary

// Write exports the tables of db into outDir.
func Write(ctx context.Context, src table.Source, outDir string, opt Options) (Summary, error) {
	return table.Export(ctx, src, outDir, table.ExportOptions{SweepID: opt.SweepID, Tables: opt.Tables, BatchRows: opt.BatchRows,
		Progress: opt.Progress}, Format(opt.Zstd))
}

// Format is the Arrow IPC file format.
func Format(zstd bool) table.Format {
	return table.Format{Ext: "arrow", New: func(w io.Writer, t table.Table, sweepID int64) (table.BatchWriter, error) {
		opts := []ipc.Option{ipc.WithSchema(t.ArrowSchema(sweepID))}
		if zstd {
			opts = append(opts, ipc.WithZstd())
		}
		return ipc.NewFileWriter(w, opts...)
	}}
}
