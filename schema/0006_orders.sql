-- Presage store, version 6: the orders-based technology (seed 004,
-- docs/orders.md). Order traces and calibrations are inputs, stored once
-- per content like traces; a simulation of an order trace on a cluster is
-- a run (engine 'orders') with one interval, the program, whose
-- characteristics and per-node values (interval_proc_values, proc = node)
-- every view and export already carries; what only orders have is in the
-- order_* tables below.

-- An order trace: header fields, and its work and span (sim/workspan).
CREATE TABLE order_traces (
    id          INTEGER PRIMARY KEY,
    name        TEXT    NOT NULL,          -- file base name without .jsonl/.gz
    path        TEXT    NOT NULL,          -- as given on the command line
    sha256      TEXT    NOT NULL UNIQUE,   -- of the file's bytes as stored on disk
    bytes       INTEGER NOT NULL,          -- of the file
    program     TEXT    NOT NULL,
    unit        TEXT    NOT NULL,          -- 's' or 'ref'
    machine     TEXT    NOT NULL DEFAULT '', -- where the calibration was made
    orders      INTEGER NOT NULL,
    work        REAL    NOT NULL,          -- sum of the orders' durations
    span        REAL    NOT NULL,          -- longest dependency chain
    ingested_at TEXT    NOT NULL
);

-- The orders of a trace, in chunks of consecutive orders: their canonical
-- JSON lines (one per order, as ordertrace writes them), zstd-compressed.
CREATE TABLE order_trace_chunks (
    trace_id    INTEGER NOT NULL REFERENCES order_traces(id) ON DELETE CASCADE,
    chunk       INTEGER NOT NULL,          -- 0-based
    orders      INTEGER NOT NULL,          -- orders in data
    data        BLOB    NOT NULL,
    PRIMARY KEY (trace_id, chunk)
);

-- A calibration file (stage 2): timed runs of the marked blocks.
CREATE TABLE calibrations (
    id          INTEGER PRIMARY KEY,
    name        TEXT    NOT NULL,
    path        TEXT    NOT NULL,
    sha256      TEXT    NOT NULL UNIQUE,
    bytes       INTEGER NOT NULL,
    rows        INTEGER NOT NULL,
    ingested_at TEXT    NOT NULL
);

CREATE TABLE calibration_rows (
    calibration_id INTEGER NOT NULL REFERENCES calibrations(id) ON DELETE CASCADE,
    row         INTEGER NOT NULL,          -- 1-based, in file order
    block       TEXT    NOT NULL,
    alpha       TEXT    NOT NULL,          -- the block's parameters, ';'-separated
    f           REAL    NOT NULL,          -- the estimate f(alpha)
    seconds     REAL    NOT NULL,          -- measured T(alpha)
    machine     TEXT    NOT NULL,
    rep         INTEGER NOT NULL,
    PRIMARY KEY (calibration_id, row)
) WITHOUT ROWID;

-- Per block and machine: the constant c = T/f (mean, spread) and the
-- flags of orders/calibration (DRIFT: c changes with f, the estimate is
-- wrong; NOISY: repetitions disagree).
CREATE TABLE calibration_blocks (
    calibration_id INTEGER NOT NULL REFERENCES calibrations(id) ON DELETE CASCADE,
    block       TEXT    NOT NULL,
    machine     TEXT    NOT NULL,
    runs        INTEGER NOT NULL,
    c_mean      REAL    NOT NULL,
    c_sd        REAL    NOT NULL,
    c_cv        REAL    NOT NULL,
    noise       REAL    NOT NULL,          -- pooled spread between repetitions of one alpha
    slope       REAL,                      -- log-log slope of T against f (1 when f is right; NULL when f varies too little)
    flags       TEXT    NOT NULL,          -- 'DRIFT', 'NOISY', both comma-separated, or ''
    PRIMARY KEY (calibration_id, block, machine)
) WITHOUT ROWID;

-- Which engine made a run: 'dvm' (a Lib-DVM trace) or 'orders' (an order
-- trace on a cluster: grid = the node count, tstart = the latency, tbyte =
-- 1/bandwidth, power = the nodes' power).
ALTER TABLE runs ADD COLUMN engine TEXT NOT NULL DEFAULT 'dvm';
ALTER TABLE runs ADD COLUMN order_trace_id INTEGER REFERENCES order_traces(id);

-- What only an orders simulation has.
CREATE TABLE order_runs (
    run_id      INTEGER PRIMARY KEY REFERENCES runs(id) ON DELETE CASCADE,
    trace_id    INTEGER NOT NULL REFERENCES order_traces(id),
    scheduler   TEXT    NOT NULL,
    nodes       INTEGER NOT NULL,
    cores       INTEGER NOT NULL,
    latency     REAL    NOT NULL,          -- s
    bandwidth   REAL    NOT NULL,          -- bytes/s; 0 = infinite
    power       REAL    NOT NULL,
    makespan    REAL    NOT NULL,          -- s
    work        REAL    NOT NULL,
    span        REAL    NOT NULL,
    burdened_span REAL  NOT NULL,
    parallelism REAL    NOT NULL,
    speedup     REAL    NOT NULL,          -- work / makespan
    speedup_lo  REAL    NOT NULL,          -- the work/span bounds for this node count
    speedup_hi  REAL    NOT NULL
);

-- Per node of an orders simulation.
CREATE TABLE order_nodes (
    run_id      INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    node        INTEGER NOT NULL,          -- 0-based
    orders      INTEGER NOT NULL,          -- orders run on the node
    busy        REAL    NOT NULL,          -- s computing
    idle        REAL    NOT NULL,          -- s with nothing to run
    waiting     REAL    NOT NULL,          -- s with only suspended orders
    transfer    REAL    NOT NULL,          -- s of messages received
    PRIMARY KEY (run_id, node)
) WITHOUT ROWID;

-- Per order of an orders simulation (kept up to a size the user chooses).
CREATE TABLE order_events (
    run_id      INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    order_id    INTEGER NOT NULL,
    node        INTEGER NOT NULL,
    ready       REAL    NOT NULL,          -- s: its arguments arrived
    start       REAL    NOT NULL,
    end         REAL    NOT NULL,
    wait        REAL    NOT NULL,          -- s suspended at requests
    PRIMARY KEY (run_id, order_id)
) WITHOUT ROWID;

-- The critical path of an orders simulation: the chain of orders that
-- determines the makespan, from the first to the last, with the waits that
-- lengthened it.
CREATE TABLE order_critical_path (
    run_id      INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    step        INTEGER NOT NULL,          -- 0 = first
    order_id    INTEGER NOT NULL,
    node        INTEGER NOT NULL,
    start       REAL    NOT NULL,
    end         REAL    NOT NULL,
    wait        REAL    NOT NULL,
    reason      TEXT    NOT NULL,          -- why this step follows the previous one
    PRIMARY KEY (run_id, step)
) WITHOUT ROWID;

-- Sweeps of order traces: a sweep names its DVM trace or its order trace,
-- so trace_id becomes optional (the table is rebuilt: SQLite cannot drop a
-- NOT NULL; runs.sweep_id keeps referring to it by name, and the migration
-- runs with foreign keys off, checked before it commits).
CREATE TABLE sweeps_new (
    id          INTEGER PRIMARY KEY,
    trace_id    INTEGER REFERENCES traces(id),
    command     TEXT    NOT NULL,
    created_at  TEXT    NOT NULL,
    kind        TEXT    NOT NULL DEFAULT 'sweep',
    def_hash    TEXT,
    definition  TEXT    NOT NULL DEFAULT '{}',
    configs     INTEGER NOT NULL DEFAULT 0,
    skipped     INTEGER NOT NULL DEFAULT 0,
    order_trace_id INTEGER REFERENCES order_traces(id),
    CHECK ((trace_id IS NULL) <> (order_trace_id IS NULL))
);
INSERT INTO sweeps_new(id, trace_id, command, created_at, kind, def_hash, definition, configs, skipped)
    SELECT id, trace_id, command, created_at, kind, def_hash, definition, configs, skipped FROM sweeps;
DROP TABLE sweeps;
ALTER TABLE sweeps_new RENAME TO sweeps;
CREATE UNIQUE INDEX sweeps_def_hash ON sweeps(def_hash);

-- v_runs gains the engine and the order trace.
DROP VIEW v_runs;
CREATE VIEW v_runs AS
SELECT r.id                      AS run_id,
       coalesce(r.sweep_id, 0)   AS sweep_id,
       r.kind, r.engine, r.program, r.trace_id, r.order_trace_id, r.sts_id, r.machine,
       r.grid, r.grid_rank, r.grid_d1, r.grid_d2, r.grid_d3, r.grid_d4,
       r.procs, r.network, r.tstart, r.tbyte, r.power, r.options,
       r.report_root, r.execution_time,
       r.execution_time * r.procs AS cost,
       r.created_at
FROM runs r;

-- The orders tables with the sweep of their run, for pandas and the exports.
CREATE VIEW v_order_runs AS
SELECT r.sweep_id, o.*, t.name AS trace, t.program
FROM order_runs o JOIN v_runs r ON r.run_id = o.run_id JOIN order_traces t ON t.id = o.trace_id;

CREATE VIEW v_order_nodes AS
SELECT r.sweep_id, n.*, n.busy / nullif(o.makespan, 0) AS load
FROM order_nodes n JOIN v_runs r ON r.run_id = n.run_id JOIN order_runs o ON o.run_id = n.run_id;
