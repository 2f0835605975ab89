// Package table owns the definitions of the exported tables, shared by
// every exporter (Parquet, Arrow IPC, CSV): their columns and types, the
// partition layout of the output directory, and the building of Arrow
// record batches from the typed rows the store streams (stored.RunRow,
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
	Timestamp // seconds since the epoch, UTC
)

// Column is one column of an exported table. Unit and Doc go into the
// Arrow field metadata (and so into Parquet's) and into docs/exports.md.
type Column struct {
	Name     string
	Kind     Kind
	Nullable bool
	Unit     string // "" for none
	Doc      string
}

// Table is an exported table: columns of the rows of one store view
// (v_runs, v_intervals, v_values_long, v_intervals_wide), read one sweep at
// a time. The partition column sweep_id is not among Columns: it is in the
// partition path (Hive style) and in the file metadata.
type Table struct {
	Name    string // directory name in the export: values, intervals_wide, runs, intervals
	Columns []Column
	stream  streamFunc // reads the rows and appends the Columns
	// Static tables do not depend on the store's sweeps: one file,
	// <dir>/<table>/part-0.<ext>, without a sweep_id partition.
	Static bool
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

func col(name string, k Kind, unit, doc string) Column {
	return Column{Name: name, Kind: k, Unit: unit, Doc: doc}
}

func nullable(name string, k Kind, unit, doc string) Column {
	return Column{Name: name, Kind: k, Nullable: true, Unit: unit, Doc: doc}
}

// Descriptions of the columns several tables share.
const (
	docRunID      = "the run (runs.id of the store)"
	docProgram    = "the program: the trace's or the measured run's name"
	docMachine    = "the machine file's name; empty for measured runs"
	docGrid       = "the processor grid, e.g. 2x2"
	docProcs      = "processors of the grid"
	docNetwork    = "the network model: cluster, bus or mesh"
	docTStart     = "override of every cluster's message start-up time; NULL when the machine file's values are used"
	docTByte      = "override of every cluster's time per byte; NULL when the machine file's values are used"
	docPower      = "override of every processor's relative power; NULL when the machine file's values are used"
	docIntervalID = "the interval (numbered within its run)"
	docPath       = `the interval's path from Main, e.g. "Main->Seq@jac.fdv:12"`
	docType       = "the interval's type: Main, Seq, Par, User"
	docLevel      = "the interval's depth: 0 for Main"
	docLine       = "the interval's source line"
)

// Runs is the table of configurations (v_runs).
var Runs = Table{
	Name: "runs", stream: streamRows(Source.RunRows, runFields),
	Columns: []Column{
		col("run_id", Int64, "", docRunID),
		col("kind", String, "", "predicted (simulated from a trace) or measured (from a statistics file or a real orders run)"),
		col("program", String, "", docProgram),
		nullable("trace_id", Int64, "", "the trace a prediction simulated (traces.id)"),
		nullable("sts_id", Int64, "", "the statistics file of a measured run (sts_files.id)"),
		nullable("machine", String, "", docMachine),
		col("grid", String, "", docGrid),
		col("grid_rank", Int64, "", "dimensions of the grid"),
		col("grid_d1", Int64, "", "the grid's first dimension"),
		nullable("grid_d2", Int64, "", "the grid's second dimension; NULL for a lower rank"),
		nullable("grid_d3", Int64, "", "the grid's third dimension; NULL for a lower rank"),
		nullable("grid_d4", Int64, "", "the grid's fourth dimension; NULL for a lower rank"),
		col("procs", Int64, "", docProcs),
		nullable("network", String, "", docNetwork),
		nullable("tstart_us", Float64, "µs", docTStart),
		nullable("tbyte_us", Float64, "µs/byte", docTByte),
		nullable("power", Float64, "", docPower),
		nullable("tstart_used_us", Float64, "µs", "the message start-up time the prediction used (the override, else the machine file's top-level cluster's); NULL for measured runs"),
		nullable("tbyte_used_us", Float64, "µs/byte", "the time per byte the prediction used (the override, else the machine file's top-level cluster's); NULL for measured runs"),
		nullable("power_used", Float64, "", "the mean power of the grid's processors the prediction used; NULL for measured runs"),
		col("options", String, "", "deviations from the original Predictor switched on, comma-separated"),
		col("report_root", Int64, "", "the interval the original's report starts from"),
		col("execution_time", Float64, "s", "Main's execution time"),
		col("cost", Float64, "processor·s", "execution_time × procs"),
		col("doubtful", Int64, "", "1 when the configuration leaves the model's domain (an array over more processors than its elements in a dimension: docs/deviations.md), else 0"),
		col("created_at", Timestamp, "", "when the run was stored"),
	},
}

// Intervals is the table of interval trees (v_intervals).
var Intervals = Table{
	Name: "intervals", stream: streamRows(Source.IntervalRows, intervalFields),
	Columns: []Column{
		col("run_id", Int64, "", docRunID), col("interval_id", Int64, "", docIntervalID),
		nullable("parent", Int64, "", "the parent interval; NULL for Main"),
		col("ord", Int64, "", "position in the tree's pre-order"), col("level", Int64, "", docLevel),
		col("type", String, "", docType), col("file", String, "", "the interval's source file"),
		col("line", Int64, "", docLine),
		nullable("expr", Int64, "", "the value of the interval's expression (a User interval's); NULL for none"),
		col("count", Int64, "", "times the interval was entered"), col("path", String, "", docPath),
	},
}

// runColumns are the configuration columns repeated in the long and wide tables.
var runColumns = []Column{
	col("run_id", Int64, "", docRunID), col("kind", String, "", "predicted or measured"),
	col("program", String, "", docProgram), nullable("machine", String, "", docMachine),
	col("grid", String, "", docGrid), col("procs", Int64, "", docProcs), nullable("network", String, "", docNetwork),
	nullable("tstart_us", Float64, "µs", docTStart), nullable("tbyte_us", Float64, "µs/byte", docTByte),
	nullable("power", Float64, "", docPower),
}

// Values is the tidy table (v_values_long): one value per row.
var Values = Table{
	Name: "values", stream: streamRows(Source.ValueRows, valueFields),
	Columns: concat(runColumns, []Column{
		col("interval_id", Int64, "", docIntervalID), col("path", String, "", docPath), col("type", String, "", docType),
		col("level", Int64, "", docLevel), col("line", Int64, "", docLine),
		nullable("proc", Int64, "", "the processor (0-based); NULL for the interval's own value"),
		col("characteristic", String, "", "the characteristic's name (the characteristics table)"),
		col("unit", String, "", "the unit of value"),
		col("family", String, "", "the characteristic's family: time, efficiency, lost time…"),
		col("value", Float64, "see unit", "the value"),
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
	col("interval_id", Int64, "", docIntervalID), nullable("parent", Int64, "", "the parent interval; NULL for Main"),
	col("path", String, "", docPath), col("type", String, "", docType), col("level", Int64, "", docLevel),
	col("file", String, "", "the interval's source file"), col("line", Int64, "", docLine),
	col("count", Int64, "", "times the interval was entered"),
}

func concat(parts ...[]Column) []Column {
	var out []Column
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

// Characteristics describes the characteristics the values and the wide
// columns name (sim/result's, as the store's characteristics table holds
// them).
var Characteristics = Table{
	Name: "characteristics", Static: true, stream: streamCharacteristics,
	Columns: []Column{
		col("characteristic", String, "", "the name, as in values.characteristic and the wide table's columns"),
		col("unit", String, "", "s, ratio, count or processors"),
		col("family", String, "", "the family: time, efficiency, lost time…"),
		nullable("op_class", String, "", "for per-operation-class times, the class (IO, Reduction, Shadow, Remote, Redistribution); NULL for the others"),
		col("description", String, "", "what it measures"),
	},
}

// All lists the tables partitioned by sweep.
func All() []Table { return []Table{Values, Wide, Runs, Intervals} }

// Exported lists every exported table: All and the static ones.
func Exported() []Table { return append(All(), Characteristics) }

// PartPath is where the file of a table's sweep goes in an export
// directory: <dir>/<table>/sweep_id=<n>/part-0.<ext>; a static table's
// (sweepID < 0) is <dir>/<table>/part-0.<ext>.
func PartPath(dir, table string, sweepID int64, ext string) string {
	if sweepID < 0 {
		return filepath.Join(dir, table, "part-0."+ext)
	}
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
	case Timestamp:
		return "timestamp (s, UTC)"
	}
	return fmt.Sprintf("Kind(%d)", int(k))
}
