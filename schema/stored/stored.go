// Package stored holds what the store gives its readers, as Go values: the
// rows of the exported views (runs, intervals, values, the wide table), the
// stored sweeps with their headline numbers, an orders simulation with its
// nodes, events and critical path, a measured run's statistics-file details
// and a stored machine's description. Renderers and exports speak these
// types; schema/store fills them. It imports the model only, never SQL.
package stored

import (
	"database/sql"

	"github.com/presage-dvm/presage/sim/result"
)

// MachineInfo describes a stored machine file (a row of the machines
// table).
type MachineInfo struct {
	ID         int64  `db:"id"`
	Name       string `db:"name"` // file base name without .par
	Path       string `db:"path"` // as given to the ingest
	SHA256     string `db:"sha256"`
	Format     string `db:"format"`     // machine.FormatCluster or machine.FormatFlat
	Root       string `db:"root"`       // name of the modelled cluster
	Processors int    `db:"processors"` // number of leaves
	Search     int    `db:"search"`
	IngestedAt string `db:"ingested_at"` // RFC 3339, UTC
	// Existing is set by the ingest when the file's content was already
	// stored and nothing was written.
	Existing bool `db:"-"`
}

// OrderRun is what only an orders simulation has (a row of order_runs).
type OrderRun struct {
	TraceID   int64   `db:"trace_id"` // order trace
	Scheduler string  `db:"scheduler"`
	Migrate   bool    `db:"migrate"` // waiting orders resume on any free node
	Nodes     int     `db:"nodes"`
	Cores     int     `db:"cores"`
	Latency   float64 `db:"latency"`   // s
	Bandwidth float64 `db:"bandwidth"` // bytes/s; 0 = infinite
	// Messages is the measured network's message times by size, as JSON
	// (machine.Cluster.Messages), "" when Latency and Bandwidth priced them.
	Messages string `db:"messages"`
	Hub      bool   `db:"hub"` // messages went through one hub, one at a time on each of its links
	// Relay is the share of a message's time that held the hub, by size,
	// as JSON (machine.Cluster.Relay), "" when the whole time did.
	Relay string `db:"relay"`
	// OrderCost and WaitCost are the runtime's own costs per order and per
	// wait the cluster gave (machine.Cluster), seconds, charged in place of
	// the trace's; 0 and 0 when the trace's were.
	OrderCost float64 `db:"order_cost"`
	WaitCost  float64 `db:"wait_cost"`
	// Ahead is how many orders the cluster's runtime started ahead on a
	// busy core (machine.Cluster.Ahead), 0 for none; AheadMax, how many
	// it could come to (machine.Cluster.AheadMax), 0 for as many.
	Ahead    int `db:"ahead"`
	AheadMax int `db:"ahead_max"`
	// Processes, for a measured run whose workers were the cores of
	// worker processes, is their number (Nodes); 0 otherwise.
	Processes    int     `db:"processes"`
	Power        float64 `db:"power"`
	Makespan     float64 `db:"makespan"`
	Work         float64 `db:"work"`
	Span         float64 `db:"span"`
	BurdenedSpan float64 `db:"burdened_span"`
	Parallelism  float64 `db:"parallelism"`
	Speedup      float64 `db:"speedup"`
	SpeedupLo    float64 `db:"speedup_lo"`
	SpeedupHi    float64 `db:"speedup_hi"`
}

// OrderNode is one node of an orders simulation.
type OrderNode struct {
	Node     int     `db:"node"`
	Orders   int64   `db:"orders"`
	Busy     float64 `db:"busy"`
	Idle     float64 `db:"idle"`
	Waiting  float64 `db:"waiting"`
	Transfer float64 `db:"transfer"`
}

// OrderEvent is where and when one order ran, in a simulation or a real
// run (where Node is the worker).
type OrderEvent struct {
	Order  int64   `db:"order_id"`
	Proc   string  `db:"proc"`   // the procedure it ran; "" when stored before version 13
	Parent int64   `db:"parent"` // the order that made it; 0 for main
	Child  int     `db:"child"`  // its place among its parent's children, from 0
	Node   int     `db:"node"`   // where it started
	Ready  float64 `db:"ready"`
	Start  float64 `db:"start"`
	End    float64 `db:"end"`
	Wait   float64 `db:"wait"`
}

// OrderStretch is a stretch of time an order ran without waiting: between
// two stretches of the same order it was suspended, holding no core.
type OrderStretch struct {
	Order int64   `db:"order_id"`
	Seq   int     `db:"seq"` // 0-based, in time order
	Node  int     `db:"node"`
	Start float64 `db:"start"`
	End   float64 `db:"end"`
}

// OrderProc sums the orders of one procedure in a run.
type OrderProc struct {
	Proc         string  `db:"proc"`
	Orders       int64   `db:"orders"`
	Work         float64 `db:"work"`      // s running
	PathTime     float64 `db:"path_time"` // s of the critical path spent in its orders
	MeanDuration float64 `db:"mean_duration"`
	SDDuration   float64 `db:"sd_duration"` // standard deviation of end − start
}

// PathStep is one step of the critical path.
type PathStep struct {
	Step   int     `db:"step"` // position in the whole path (0 = first)
	Order  int64   `db:"order_id"`
	Proc   string  `db:"proc"`
	Node   int     `db:"node"`
	Start  float64 `db:"start"`
	End    float64 `db:"end"`
	Wait   float64 `db:"wait"`
	Reason string  `db:"reason"`
}

// OrderSimulation is an orders simulation to store: the run (Kind
// predicted; its Config.Grid is the node count) and the rows only orders
// have. Events may hold only some orders (or none): the caller bounds it.
type OrderSimulation struct {
	Run    *result.Run
	Detail OrderRun
	Nodes  []OrderNode
	Path   []PathStep
	Events []OrderEvent
	// Stretches are those of the orders in Events, by order then time.
	Stretches []OrderStretch
	// Procs covers every order of the run, by procedure name.
	Procs []OrderProc
}

// OrderRunRow is an orders simulation of a sweep.
type OrderRunRow struct {
	RunID int64 `db:"run_id"`
	Index int   `db:"sweep_index"`
	OrderRun
}

// StsDetails is what the analyzer's report of a measured run shows besides
// the run itself: what its statistics file says about the run-time system,
// the processors and the intervals (schema/0002_sts.sql).
type StsDetails struct {
	Version  string `db:"version"` // DVM-system version that accumulated the statistics
	Platform string `db:"platform"`
	Grid     string `db:"grid_sizes"` // processor grid as the file states it
	Procs    []StsProc
	Warnings []string // the analyzer's "!!" warnings, in report order
	// Per interval ID: the run-time system's type code and last line.
	Intervals []StsInterval
	// The time-matrix row and column sums, rows of zeros left out.
	Sums []MatrixSum
}

// StsProc is one processor of a statistics file, in file order.
type StsProc struct {
	Name     string  `db:"name"`
	TestTime float64 `db:"test_time"` // performance-test time (s)
	Threads  int64   `db:"threads"`
}

// StsInterval is what the statistics file adds to an interval of the run.
type StsInterval struct {
	ID       int   `db:"interval_id"`
	TypeCode int   `db:"type_code"` // 20 main, 21 seq, 22 par, 23 user
	LineEnd  int64 `db:"line_end"`  // last source line
}

// MatrixSum is the row (Axis "i") or column ("j") sum of the time matrix
// of an interval on one processor (0-based) for one operation group.
type MatrixSum struct {
	Interval int     `db:"interval_id"`
	Proc     int     `db:"proc"`
	Axis     string  `db:"axis"`
	Group    int     `db:"grp"`
	Calls    float64 `db:"calls"`
	Product  float64 `db:"product"`
	Lost     float64 `db:"lost"`
}

// SweepReport is what the report of a sweep shows besides the lost-time
// breakdown of one of its runs (Run gives that run).
type SweepReport struct {
	Sweep   Sweep
	Trace   string // the name of the sweep's trace
	Configs []SweepConfig
}

// SweepConfig is one stored run of a sweep: its configuration and its
// headline numbers. Unset overrides (network, tstart, …) are zero.
type SweepConfig struct {
	RunID   int64   `db:"id"`
	Program string  `db:"program"`
	Machine string  `db:"machine"`
	Grid    string  `db:"grid"`
	Procs   int     `db:"procs"`
	Network string  `db:"network"`
	TStart  float64 `db:"tstart"` // 0 = the machine file's
	TByte   float64 `db:"tbyte"`
	Power   float64 `db:"power"`
	Time    float64 `db:"execution_time"`
	// Efficiency of the root interval, not Valid when not stored.
	Efficiency Null[float64] `db:"effic"`
	// Doubtful: the configuration leaves the model's domain
	// (result.Warning).
	Doubtful bool `db:"doubtful"`
}

// Sweep is the row of one sweep or search: a set of configurations of one
// trace, identified in every store by the hash of its definition.
type Sweep struct {
	ID         int64  `db:"id"`
	TraceID    int64  `db:"trace_id"`       // a sweep of a Lib-DVM trace
	OrderTrace int64  `db:"order_trace_id"` // or of an order trace
	Kind       string `db:"kind"`           // "sweep" or "search"
	Command    string `db:"command"`        // the command line that made it
	Hash       string `db:"def_hash"`       // identity: sha256 of the definition
	Definition string `db:"definition"`     // the definition as JSON
	Configs    int    `db:"configs"`        // configurations of the whole definition (all shards)
	Skipped    int    `db:"skipped"`        // grids left out for exceeding a machine
	CreatedAt  string `db:"created_at"`     // RFC 3339, UTC
}

// Outcome is the headline of a stored configuration of a sweep.
type Outcome struct {
	Index      int     `db:"sweep_index"`
	RunID      int64   `db:"id"`
	Grid       string  `db:"grid"`
	Machine    string  `db:"machine"`
	Procs      int     `db:"procs"`
	Time       float64 `db:"execution_time"` // of the root interval (s)
	Efficiency float64 `db:"efficiency"`     // of the root interval
	Doubtful   bool    `db:"doubtful"`       // outside the model's domain (result.Warning)
}

// Cost is the processor time the configuration occupies: time x processors.
func (o Outcome) Cost() float64 { return o.Time * float64(o.Procs) }

// CharacteristicRow is a row of the characteristics table.
type CharacteristicRow struct {
	Name, Unit, Family string
}

// ValueRow is one value with its dimensions: a row of v_values_long.
type ValueRow struct {
	Run      *RunRow
	Interval *IntervalRow
	Char     *CharacteristicRow
	Proc     Null[int64] // NULL for the interval's own value
	Value    float64
}

// IntervalValue is one interval-level value (not a per-processor one) with
// the names it is known by.
type IntervalValue struct {
	RunID          int64
	Path           string // interval path, as in v_intervals
	Characteristic string
	Value          float64
}

// WideRow is one interval of a run with all its values: a row of
// v_intervals_wide, whose characteristic columns are
// schema.WideCharColumns(). Has marks the values stored (the others are
// NULL in the view).
type WideRow struct {
	Run      *RunRow
	Interval *IntervalRow
	Values   result.Values
	Has      [result.NumChars]bool
}

// Null is a column value that may be NULL: V is meaningful when Valid.
type Null[T any] = sql.Null[T]

// RunRow is one configuration as the exports show it: a row of v_runs.
type RunRow struct {
	ID, SweepID            int64
	Kind, Program          string
	TraceID, StsID         Null[int64]
	Machine                Null[string]
	Grid                   string
	GridRank, GridD1       int64
	GridD2, GridD3, GridD4 Null[int64]
	Procs                  int64
	Network                Null[string]
	TStartUS, TByteUS      Null[float64] // µs, µs/byte
	Power                  Null[float64]
	TStartUsedUS           Null[float64] // µs
	TByteUsedUS            Null[float64] // µs/byte
	PowerUsed              Null[float64]
	Options                string
	ReportRoot             int64
	ExecutionTime, Cost    float64 // of the root interval; cost = time x processors
	Doubtful               int64   // 1 outside the model's domain (result.Warning), else 0
	CreatedAt              string
}

// IntervalRow is one interval of a run's tree with its path from the root
// ("Main->Seq@jac.fdv:12"): a row of v_intervals.
type IntervalRow struct {
	RunID, ID  int64
	Parent     Null[int64]
	Ord, Level int64
	Type, File string
	Line       int64
	Expr       Null[int64]
	Count      int64
	Path       string
}

// StsGroups is the number of operation groups of a statistics file's time
// matrix (its rows and columns).
const StsGroups = 28

// StsAnalysis is the analyzer's outcome on one statistics file: what
// ingest/pppa computes and the store saves (the run, and what the run
// does not carry, read back as StsDetails).
type StsAnalysis struct {
	Run       *result.Run       // Kind Measured; Intervals in the analyzer's visit order
	Intervals []StsIntervalSums // parallel to Run.Intervals
	Procs     []StsProc         // in file order
	Grid      []int64           // processor grid as the file states it
	Version   string            // DVM-system version that accumulated the statistics
	Platform  string
	Warnings  []string // the report's "!!" lines, in order
	SmallBuff bool     // not all collective-operation times were stored
}

// StsIntervalSums holds the fields of an interval the run does not carry.
type StsIntervalSums struct {
	TypeCode int        // run-time system type code (sts.TypeSeq, ...)
	LineEnd  int64      // last source line
	Sums     []ProcSums // per processor of the interval, in processor order
}

// ProcSums are one processor's time-matrix sums of an interval, nested
// intervals included: per operation group, (call count, product time,
// lost time) summed over the row (Rows) or the column (Cols).
type ProcSums struct {
	Proc       int // 0-based
	Rows, Cols [StsGroups][3]float64
}

// SchemaVersion is the store schema version this build writes: the number
// of schema/NNNN_*.sql migrations (a test of package schema checks it).
// Exports carry it in their metadata.
const SchemaVersion = 29

// WideColumn is one characteristic column of the wide table
// (v_intervals_wide and its exports): the characteristic's canonical name
// and its id.
type WideColumn struct {
	Name string
	Char result.Char
}

// WideCharColumns are the characteristic columns of the wide table, in
// characteristic order. The view and the wide export are both generated
// from this list, so they cannot disagree.
func WideCharColumns() []WideColumn {
	cols := make([]WideColumn, result.NumChars)
	for i, c := range result.Chars {
		cols[i] = WideColumn{Name: c.Name, Char: result.Char(i)}
	}
	return cols
}
