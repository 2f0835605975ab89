// Package table owns the definitions of the exported tables, shared by
// every exporter (Parquet, Arrow IPC, CSV): their columns and types, the
// partition layout of the output directory, and the building of Arrow
// record batches from the typed rows the store streams (store.RunRow,
// IntervalRow, ValueRow, WideRow). The SQL that reads them is the store's.
package table

import (
	"fmt"
	"path/filepath"
	"strconv"
)

// Kind is the type of a column.
type Kind int

const (
	Int64 Kind = iota
	Float64
	String
)

// Column is one column of an exported table.
type Column struct {
	Name     string
	Kind     Kind
	Nullable bool
}

// Table is an exported table: columns of the rows of one store view
// (v_runs, v_intervals, v_values_long, v_intervals_wide), read one sweep at
// a time. The partition column sweep_id is not among Columns: it is in the
// partition path (Hive style) and in the file metadata.
type Table struct {
	Name    string // directory name in the export: values, intervals_wide, runs, intervals
	Columns []Column
	stream  streamFunc // reads the rows and appends the Columns
}

// Metadata keys written into every exported file.
const (
	MetaSchemaVersion = "presage.schema_version"
	MetaTable         = "presage.table"
	MetaSweepID       = "presage.sweep_id"
)

// DefaultBatchRows is the number of rows per record batch (and per Parquet
// row group): large enough for fast columnar writes, small enough to keep
// memory flat.
const DefaultBatchRows = 64 * 1024

func col(name string, k Kind) Column      { return Column{Name: name, Kind: k} }
func nullable(name string, k Kind) Column { return Column{Name: name, Kind: k, Nullable: true} }

// Runs is the table of configurations (v_runs).
var Runs = Table{
	Name: "runs", stream: streamRows(Source.RunRows, runFields),
	Columns: []Column{
		col("run_id", Int64), col("kind", String), col("program", String),
		nullable("trace_id", Int64), nullable("sts_id", Int64), nullable("machine", String),
		col("grid", String), col("grid_rank", Int64), col("grid_d1", Int64),
		nullable("grid_d2", Int64), nullable("grid_d3", Int64), nullable("grid_d4", Int64),
		col("procs", Int64), nullable("network", String),
		nullable("tstart", Float64), nullable("tbyte", Float64), nullable("power", Float64),
		col("options", String), col("report_root", Int64), col("execution_time", Float64),
		col("cost", Float64), col("created_at", String),
	},
}

// Intervals is the table of interval trees (v_intervals).
var Intervals = Table{
	Name: "intervals", stream: streamRows(Source.IntervalRows, intervalFields),
	Columns: []Column{
		col("run_id", Int64), col("interval_id", Int64), nullable("parent", Int64),
		col("ord", Int64), col("level", Int64), col("type", String), col("file", String),
		col("line", Int64), nullable("expr", Int64), col("count", Int64), col("path", String),
	},
}

// runColumns are the configuration columns repeated in the long and wide tables.
var runColumns = []Column{
	col("run_id", Int64), col("kind", String), col("program", String), nullable("machine", String),
	col("grid", String), col("procs", Int64), nullable("network", String),
	nullable("tstart", Float64), nullable("tbyte", Float64), nullable("power", Float64),
}

// Values is the tidy table (v_values_long): one value per row.
var Values = Table{
	Name: "values", stream: streamRows(Source.ValueRows, valueFields),
	Columns: concat(runColumns, []Column{
		col("interval_id", Int64), col("path", String), col("type", String),
		col("level", Int64), col("line", Int64), nullable("proc", Int64),
		col("characteristic", String), col("unit", String), col("family", String),
		col("value", Float64),
	}),
}

// Wide is the wide interval table (v_intervals_wide): one row per run and
// interval, one column per characteristic.
var Wide = Table{
	Name:    "intervals_wide",
	Columns: concat(runColumns, wideIntervalColumns, charColumns()),
	stream:  streamRows(Source.WideRows, wideFields),
}

var wideIntervalColumns = []Column{
	col("interval_id", Int64), nullable("parent", Int64), col("path", String),
	col("type", String), col("level", Int64), col("file", String), col("line", Int64),
	col("count", Int64),
}

func concat(parts ...[]Column) []Column {
	var out []Column
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

// All lists the exported tables.
func All() []Table { return []Table{Values, Wide, Runs, Intervals} }

// PartPath is where the file of a table's sweep goes in an export
// directory: <dir>/<table>/sweep_id=<n>/part-0.<ext>.
func PartPath(dir, table string, sweepID int64, ext string) string {
	return filepath.Join(dir, table, "sweep_id="+strconv.FormatInt(sweepID, 10), "part-0."+ext)
}

func (k Kind) String() string {
	switch k {
	case Int64:
		return "int64"
	case Float64:
		return "float64"
	case String:
		return "string"
	}
	return fmt.Sprintf("Kind(%d)", int(k))
}
