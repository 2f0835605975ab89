// Package parquet exports a store's tables (exports/table) as Parquet
// files: zstd-compressed, dictionary-encoded strings, one row group per
// streamed batch, the store schema version in the key-value metadata, and
// Hive-style partitions by sweep (values/sweep_id=3/part-0.parquet).
package parquet

import (
	"context"
	"io"

	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	"github.com/presage-dvm/presage/exports/table"
)

// Options select what is exported.
type Options struct {
	SweepID   int64            // 0 = every sweep, runs outside sweeps under sweep_id=0
	Tables    []table.Table    // nil = table.Exported()
	BatchRows int              // rows per batch and row group; 0 = table.DefaultBatchRows
	Progress  func(rows int64) // table.ExportOptions.Progress
}

// Summary tells what was written.
type Summary = table.Summary

// Write exports the tables of db into outDir.
func Write(ctx context.Context, src table.Source, outDir string, opt Options) (Summary, error) {
	batch := opt.BatchRows
	if batch <= 0 {
		batch = table.DefaultBatchRows
	}
	return table.Export(ctx, src, outDir, table.ExportOptions{SweepID: opt.SweepID, Tables: opt.Tables, BatchRows: batch,
		Progress: opt.Progress}, Format(batch))
}

// Format is the Parquet file format with row groups of batchRows rows.
func Format(batchRows int) table.Format {
	return table.Format{Ext: "parquet", New: func(w io.Writer, t table.Table, sweepID int64) (table.BatchWriter, error) {
		return newWriter(w, t, sweepID, batchRows)
	}}
}

func newWriter(w io.Writer, t table.Table, sweepID int64, batchRows int) (table.BatchWriter, error) {
	opts := []parquet.WriterProperty{
		parquet.WithCompression(compress.Codecs.Zstd),
		parquet.WithMaxRowGroupLength(int64(batchRows)),
		parquet.WithDictionaryDefault(false),
		parquet.WithCreatedBy("presage"),
	}
	for _, c := range t.Columns {
		// Strings repeat (names, paths, grids) and dictionary-encode
		// well; measured values rarely repeat and would only fill a
		// dictionary before falling back to plain encoding.
		if c.Kind == table.String || c.Kind == table.Int64 {
			opts = append(opts, parquet.WithDictionaryFor(c.Name, true))
		}
	}
	props := parquet.NewWriterProperties(opts...)
	fw, err := pqarrow.NewFileWriter(t.ArrowSchema(sweepID), w, props,
		pqarrow.NewArrowWriterProperties(pqarrow.WithStoreSchema()))
	if err != nil {
		return nil, err
	}
	return fw, nil
}
