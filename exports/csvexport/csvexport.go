// Package csvexport exports a store's tables (exports/table) as CSV files
// (encoding/csv, a header line, NULL as an empty field, floats in the
// shortest form that reads back exactly), with the same Hive-style
// partitions by sweep as the Parquet export (values/sweep_id=3/part-0.csv).
package csvexport

import (
	"context"
	"encoding/csv"
	"fmt"
	"io"
	"strconv"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/presage-dvm/presage/exports/table"
)

// Options select what is exported.
type Options struct {
	SweepID   int64            // 0 = every sweep, runs outside sweeps under sweep_id=0
	Tables    []table.Table    // nil = table.Exported()
	BatchRows int              // rows read at a time; 0 = table.DefaultBatchRows
	Progress  func(rows int64) // table.ExportOptions.Progress
}

// Summary tells what was written.
type Summary = table.Summary

// Write exports the tables of db into outDir.
func Write(ctx context.Context, src table.Source, outDir string, opt Options) (Summary, error) {
	return table.Export(ctx, src, outDir, table.ExportOptions{SweepID: opt.SweepID, Tables: opt.Tables, BatchRows: opt.BatchRows,
		Progress: opt.Progress}, Format)
}

// Format is the CSV file format.
var Format = table.Format{Ext: "csv", New: func(w io.Writer, t table.Table, _ int64) (table.BatchWriter, error) {
	cw := &writer{w: csv.NewWriter(w), row: make([]string, len(t.Columns))}
	for i, c := range t.Columns {
		cw.row[i] = c.Name
	}
	if err := cw.w.Write(cw.row); err != nil {
		return nil, err
	}
	return cw, nil
}}

type writer struct {
	w   *csv.Writer
	row []string
}

func (cw *writer) Write(rec arrow.RecordBatch) error {
	cols := rec.Columns()
	for r := 0; r < int(rec.NumRows()); r++ {
		for i, col := range cols {
			s, err := field(col, r)
			if err != nil {
				return fmt.Errorf("column %s: %w", rec.ColumnName(i), err)
			}
			cw.row[i] = s
		}
		if err := cw.w.Write(cw.row); err != nil {
			return err
		}
	}
	return nil
}

func field(col arrow.Array, r int) (string, error) {
	if col.IsNull(r) {
		return "", nil
	}
	switch a := col.(type) {
	case *array.Int64:
		return strconv.FormatInt(a.Value(r), 10), nil
	case *array.Float64:
		return strconv.FormatFloat(a.Value(r), 'g', -1, 64), nil
	case *array.String:
		return a.Value(r), nil
	case *array.Timestamp:
		return time.Unix(int64(a.Value(r)), 0).UTC().Format(time.RFC3339), nil
	}
	return "", fmt.Errorf("unsupported type %s", col.DataType())
}

func (cw *writer) Close() error {
	cw.w.Flush()
	return cw.w.Error()
}
