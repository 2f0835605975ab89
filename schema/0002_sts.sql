-- Presage store, version 2: what the analyzer's report of an sts file
-- prints besides the run's characteristics.

-- One row per processor buffer of an sts file, in file order.
CREATE TABLE sts_procs (
    sts_id      INTEGER NOT NULL REFERENCES sts_files(id) ON DELETE CASCADE,
    proc        INTEGER NOT NULL,          -- 0-based position in the file
    name        TEXT    NOT NULL,          -- processor name (MPI_Get_processor_name)
    test_time   REAL    NOT NULL,          -- processor performance-test time (s)
    threads     INTEGER NOT NULL,          -- threads of the processor
    PRIMARY KEY (sts_id, proc)
) WITHOUT ROWID;

-- The analyzer's "!!" warnings about an sts file, in report order.
CREATE TABLE sts_warnings (
    sts_id      INTEGER NOT NULL REFERENCES sts_files(id) ON DELETE CASCADE,
    seq         INTEGER NOT NULL,
    message     TEXT    NOT NULL,
    PRIMARY KEY (sts_id, seq)
) WITHOUT ROWID;

-- Processor grid exactly as the file states it (the report prints it
-- joined by '*'), and whether not all collective-operation times were
-- stored.
ALTER TABLE sts_files ADD COLUMN grid_sizes TEXT NOT NULL DEFAULT '';
ALTER TABLE sts_files ADD COLUMN small_buff INTEGER NOT NULL DEFAULT 0;

-- Interval fields of a measured run that the analyzer's JSON prints and
-- the intervals table does not hold.
CREATE TABLE sts_intervals (
    run_id      INTEGER NOT NULL,
    interval_id INTEGER NOT NULL,
    type_code   INTEGER NOT NULL,          -- run-time system code: 20 main, 21 seq, 22 par, 23 user
    line_end    INTEGER NOT NULL,          -- last source line
    PRIMARY KEY (run_id, interval_id),
    FOREIGN KEY (run_id, interval_id) REFERENCES intervals(run_id, id) ON DELETE CASCADE
) WITHOUT ROWID;

-- Row (axis 'i') and column (axis 'j') sums of the time matrix of a
-- measured interval on one processor, nested intervals included, per
-- operation group (docs/model.md §10.3 group numbers); rows of zeros are left out.
CREATE TABLE sts_matrix_sums (
    run_id      INTEGER NOT NULL,
    interval_id INTEGER NOT NULL,
    proc        INTEGER NOT NULL,          -- 0-based
    axis        TEXT    NOT NULL CHECK (axis IN ('i', 'j')),
    grp         INTEGER NOT NULL,          -- 0 User .. 27 System
    calls       REAL    NOT NULL,
    product     REAL    NOT NULL,
    lost        REAL    NOT NULL,
    PRIMARY KEY (run_id, interval_id, proc, axis, grp),
    FOREIGN KEY (run_id, interval_id) REFERENCES intervals(run_id, id) ON DELETE CASCADE
) WITHOUT ROWID;
