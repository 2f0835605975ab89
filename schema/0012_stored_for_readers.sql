-- Presage store, version 12: what reading commands show is stored when it
-- is made, so that they only read.
--
-- run_timelines: the per-processor picture of a prediction (at most 200
-- processors by 500 time buckets, the state each processor spent most of
-- each bucket in), recorded while the run was simulated. procs is the
-- processor of every row as a JSON array; states is rows x cols bytes,
-- row by row, each a state number (sim/events.State, 0 for none),
-- compressed with zstd. Runs stored before this version, and the runs of
-- sweeps, have none: the run report then says how to make a timeline.
CREATE TABLE run_timelines (
    run_id    INTEGER PRIMARY KEY REFERENCES runs(id) ON DELETE CASCADE,
    total     INTEGER NOT NULL, -- processors of the grid
    bucket_ns INTEGER NOT NULL, -- simulated nanoseconds per column
    end_ns    INTEGER NOT NULL, -- end of the last span or message
    cols      INTEGER NOT NULL,
    procs     TEXT    NOT NULL,
    states    BLOB    NOT NULL
);

-- machines.tree: the parsed machine (sim/machine.Encode: JSON, identical
-- clusters written once), so that loading a machine parses no file. NULL
-- for machines stored before this version until presage next opens the
-- store writable and parses their source once.
ALTER TABLE machines ADD COLUMN tree TEXT;

-- traces.header_fields: the fields parsed from the header at ingest
-- (sim/trace.Header without its lines, as JSON), so that loading a trace
-- parses no text. NULL for traces stored before this version until presage
-- next opens the store writable.
ALTER TABLE traces ADD COLUMN header_fields TEXT;
