package store

// mergeTable says how the rows of one table are copied.
type mergeTable struct {
	name string
	// ids: the table has an INTEGER PRIMARY KEY id that is renumbered; the
	// mapping is kept under the table's name.
	ids bool
	// keys: unique columns (content or definition hashes) by which a row
	// already in the destination is recognised and reused, tried in turn
	// (a trace has an xxh3, a sha256 or both).
	keys []string
	// refs maps columns to the table whose renumbered id they hold.
	refs map[string]string
	// parent: rows are copied only when the row they belong to (through
	// this column, a key of refs) was added, not reused.
	parent string
}

// mergeTables in dependency order (parents first). Tables without an id are
// keyed by their parent and copied whole for every added parent.
var mergeTables = []mergeTable{
	{name: "traces", ids: true, keys: []string{"xxh3", "sha256"}},
	{name: "calls", refs: map[string]string{"trace_id": "traces"}, parent: "trace_id"},
	{name: "trace_shapes", refs: map[string]string{"trace_id": "traces"}, parent: "trace_id"},
	{name: "trace_packs", refs: map[string]string{"trace_id": "traces"}, parent: "trace_id"},
	{name: "machines", ids: true, keys: []string{"sha256"}},
	{name: "sts_files", ids: true, keys: []string{"sha256"}},
	{name: "sts_procs", refs: map[string]string{"sts_id": "sts_files"}, parent: "sts_id"},
	{name: "sts_warnings", refs: map[string]string{"sts_id": "sts_files"}, parent: "sts_id"},
	{name: "order_traces", ids: true, keys: []string{"sha256"}},
	{name: "order_trace_chunks", refs: map[string]string{"trace_id": "order_traces"}, parent: "trace_id"},
	{name: "calibrations", ids: true, keys: []string{"sha256"}},
	{name: "calibration_rows", refs: map[string]string{"calibration_id": "calibrations"}, parent: "calibration_id"},
	{name: "calibration_blocks", refs: map[string]string{"calibration_id": "calibrations"}, parent: "calibration_id"},
	{name: "order_measurements", ids: true, keys: []string{"sha256"}},
	{name: "sweeps", ids: true, keys: []string{"def_hash"}, refs: map[string]string{"trace_id": "traces", "order_trace_id": "order_traces"}},
	{name: "runs", ids: true, refs: map[string]string{"trace_id": "traces", "sts_id": "sts_files", "sweep_id": "sweeps",
		"machine_id": "machines", "order_trace_id": "order_traces", "measurement_id": "order_measurements"}},
	{name: "intervals", refs: map[string]string{"run_id": "runs"}, parent: "run_id"},
	{name: "interval_values", refs: map[string]string{"run_id": "runs"}, parent: "run_id"},
	{name: "interval_proc_series", refs: map[string]string{"run_id": "runs"}, parent: "run_id"},
	{name: "interval_proc_classes", refs: map[string]string{"run_id": "runs"}, parent: "run_id"},
	{name: "interval_stats", refs: map[string]string{"run_id": "runs"}, parent: "run_id"},
	{name: "run_timelines", refs: map[string]string{"run_id": "runs"}, parent: "run_id"},
	{name: "run_warnings", refs: map[string]string{"run_id": "runs"}, parent: "run_id"},
	{name: "sts_intervals", refs: map[string]string{"run_id": "runs"}, parent: "run_id"},
	{name: "sts_matrix_sums", refs: map[string]string{"run_id": "runs"}, parent: "run_id"},
	{name: "order_runs", refs: map[string]string{"run_id": "runs", "trace_id": "order_traces"}, parent: "run_id"},
	{name: "order_nodes", refs: map[string]string{"run_id": "runs"}, parent: "run_id"},
	{name: "order_events", refs: map[string]string{"run_id": "runs"}, parent: "run_id"},
	{name: "order_critical_path", refs: map[string]string{"run_id": "runs"}, parent: "run_id"},
	{name: "order_stretches", refs: map[string]string{"run_id": "runs"}, parent: "run_id"},
	{name: "order_procs", refs: map[string]string{"run_id": "runs"}, parent: "run_id"},
}
