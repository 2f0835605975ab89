-- Presage store, version 1: ingested inputs (traces, machine files, sts
-- files) and runs (predicted or measured) with their interval trees and
-- characteristics. Times are in seconds.

CREATE TABLE traces (
    id          INTEGER PRIMARY KEY,
    name        TEXT    NOT NULL,          -- file base name without .ptr/.gz
    path        TEXT    NOT NULL,          -- as given on the command line
    sha256      TEXT    NOT NULL UNIQUE,   -- of the file's bytes as stored on disk
    bytes       INTEGER NOT NULL,          -- uncompressed size
    calls       INTEGER NOT NULL,
    proc_count  INTEGER NOT NULL,          -- ProcCount of the header
    header      TEXT    NOT NULL,          -- the preamble, verbatim
    root_line   INTEGER NOT NULL,          -- LINE= of the first function line (root interval)
    root_file   TEXT    NOT NULL,
    ingested_at TEXT    NOT NULL
);
CREATE INDEX traces_name ON traces(name);

-- One row per traced call, in trace order. The parameter lines are kept
-- verbatim (newline-separated) so that nothing the run-time system wrote is
-- lost; ingest/ptr re-reads them when a trace is loaded.
CREATE TABLE calls (
    trace_id    INTEGER NOT NULL REFERENCES traces(id) ON DELETE CASCADE,
    seq         INTEGER NOT NULL,          -- 0-based position in the trace
    func        TEXT    NOT NULL,          -- e.g. crtda_, dvm_fopen
    call_time   REAL    NOT NULL,          -- TIME= of the call line: user time before the call
    ret_time    REAL    NOT NULL,          -- TIME= of the ret line: time inside the run-time system
    line        INTEGER NOT NULL,          -- LINE= (user source line)
    file        TEXT    NOT NULL,          -- FILE= (user source file)
    trace_line  INTEGER NOT NULL,          -- 1-based line of the call line in the trace file
    call_params TEXT    NOT NULL,
    ret_params  TEXT    NOT NULL,
    PRIMARY KEY (trace_id, seq)
) WITHOUT ROWID;

CREATE TABLE machines (
    id          INTEGER PRIMARY KEY,
    name        TEXT    NOT NULL,          -- file base name without .par
    path        TEXT    NOT NULL,
    sha256      TEXT    NOT NULL UNIQUE,
    format      TEXT    NOT NULL CHECK (format IN ('cluster', 'flat')),
    root        TEXT    NOT NULL,          -- name of the modelled cluster
    processors  INTEGER NOT NULL,          -- number of leaves
    search      INTEGER NOT NULL,          -- search= mode of the file
    source      TEXT    NOT NULL,          -- the file, verbatim
    ingested_at TEXT    NOT NULL
);
CREATE INDEX machines_name ON machines(name);

-- Measured statistics files (sts) of real parallel runs.
CREATE TABLE sts_files (
    id          INTEGER PRIMARY KEY,
    name        TEXT    NOT NULL,          -- file base name without .sts.gz+
    path        TEXT    NOT NULL,
    sha256      TEXT    NOT NULL UNIQUE,
    bytes       INTEGER NOT NULL,
    procs       INTEGER NOT NULL,
    grid        TEXT    NOT NULL,          -- e.g. 2x2
    version     TEXT    NOT NULL,          -- DVM-system version that wrote it
    platform    TEXT    NOT NULL,
    ingested_at TEXT    NOT NULL
);
CREATE INDEX sts_files_name ON sts_files(name);

-- The dimension table of characteristics, filled from sim/result.Chars.
CREATE TABLE characteristics (
    id          INTEGER PRIMARY KEY,       -- result.Char
    name        TEXT    NOT NULL UNIQUE,
    unit        TEXT    NOT NULL,
    family      TEXT    NOT NULL,
    op_class    TEXT,                      -- IO, Reduction, Shadow, Remote, Redistribution
    description TEXT    NOT NULL
);

CREATE TABLE sweeps (
    id          INTEGER PRIMARY KEY,
    trace_id    INTEGER NOT NULL REFERENCES traces(id),
    command     TEXT    NOT NULL,          -- the command line that defined it
    created_at  TEXT    NOT NULL
);

-- A run: one prediction (trace x machine configuration) or one measurement
-- (sts file). Every configuration parameter has its own column.
CREATE TABLE runs (
    id           INTEGER PRIMARY KEY,
    kind         TEXT    NOT NULL CHECK (kind IN ('predicted', 'measured')),
    trace_id     INTEGER REFERENCES traces(id),
    sts_id       INTEGER REFERENCES sts_files(id),
    sweep_id     INTEGER REFERENCES sweeps(id),
    program      TEXT    NOT NULL,         -- trace or sts name
    machine_id   INTEGER REFERENCES machines(id),
    machine      TEXT,                     -- machine name
    grid         TEXT    NOT NULL,         -- e.g. 2x2
    grid_rank    INTEGER NOT NULL,
    grid_d1      INTEGER NOT NULL,
    grid_d2      INTEGER,
    grid_d3      INTEGER,
    grid_d4      INTEGER,
    procs        INTEGER NOT NULL,
    network      TEXT,                     -- cluster (channel queue), bus, mesh
    tstart       REAL,                     -- override of every cluster's TStart (s), NULL = file
    tbyte        REAL,                     -- override of every cluster's TByte (s/byte), NULL = file
    power        REAL,                     -- override of every processor's power, NULL = file
    options      TEXT    NOT NULL DEFAULT '', -- deviations from the original switched on
    report_root  INTEGER NOT NULL,         -- interval the original's report starts from
    execution_time REAL  NOT NULL,         -- of the root interval, for quick ranking
    warnings     TEXT    NOT NULL DEFAULT '',
    created_at   TEXT    NOT NULL
);
CREATE INDEX runs_trace ON runs(trace_id);
CREATE INDEX runs_sweep ON runs(sweep_id);

CREATE TABLE intervals (
    run_id      INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    id          INTEGER NOT NULL,          -- creation number, 1 = Main
    parent      INTEGER,                   -- NULL for the root
    ord         INTEGER NOT NULL,          -- pre-order position
    level       INTEGER NOT NULL,
    type        TEXT    NOT NULL CHECK (type IN ('Main', 'Seq', 'Par', 'User')),
    file        TEXT    NOT NULL,
    line        INTEGER NOT NULL,
    expr        INTEGER,                   -- NULL when none
    count       INTEGER NOT NULL,
    PRIMARY KEY (run_id, id)
) WITHOUT ROWID;

CREATE TABLE interval_values (
    run_id      INTEGER NOT NULL,
    interval_id INTEGER NOT NULL,
    char_id     INTEGER NOT NULL REFERENCES characteristics(id),
    value       REAL    NOT NULL,
    PRIMARY KEY (run_id, interval_id, char_id),
    FOREIGN KEY (run_id, interval_id) REFERENCES intervals(run_id, id) ON DELETE CASCADE
) WITHOUT ROWID;

-- Per processor; only non-zero values are stored (absent means 0).
CREATE TABLE interval_proc_values (
    run_id      INTEGER NOT NULL,
    interval_id INTEGER NOT NULL,
    proc        INTEGER NOT NULL,          -- 0-based processor number
    char_id     INTEGER NOT NULL REFERENCES characteristics(id),
    value       REAL    NOT NULL,
    PRIMARY KEY (run_id, interval_id, proc, char_id),
    FOREIGN KEY (run_id, interval_id) REFERENCES intervals(run_id, id) ON DELETE CASCADE
) WITHOUT ROWID;

-- Comparative characteristics (seed 001): min, max and mean over the
-- processors, with the processor of the min (first) and the max (last).
CREATE TABLE interval_stats (
    run_id      INTEGER NOT NULL,
    interval_id INTEGER NOT NULL,
    char_id     INTEGER NOT NULL REFERENCES characteristics(id),
    min         REAL    NOT NULL,
    min_proc    INTEGER NOT NULL,
    max         REAL    NOT NULL,
    max_proc    INTEGER NOT NULL,
    mean        REAL    NOT NULL,
    PRIMARY KEY (run_id, interval_id, char_id),
    FOREIGN KEY (run_id, interval_id) REFERENCES intervals(run_id, id) ON DELETE CASCADE
) WITHOUT ROWID;

-- Warnings of a run counted per function name (unknown functions, ...).
CREATE TABLE run_warnings (
    run_id      INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    message     TEXT    NOT NULL,
    count       INTEGER NOT NULL,
    PRIMARY KEY (run_id, message)
) WITHOUT ROWID;
