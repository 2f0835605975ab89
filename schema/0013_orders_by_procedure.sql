-- Presage store, version 13: orders runs order by order, named by
-- procedure, for simulated and real runs alike.
--
-- A real run of an orders program (run mode with -orders.out) now writes
-- its schedule: every order's procedure, its parent and its place among
-- the parent's children (which name the same order in the recorded
-- trace), when it was made, and the stretches it ran, on which worker.
-- Stored as a measured run (presage ingest orders-run), it fills the same
-- tables as a simulation, with workers as nodes, so that presage compare
-- matches the two order by order and per procedure, and the reports and
-- timelines draw both the same way.

-- The procedure of every order, and where it sits in the tree of orders.
-- Rows stored before this version have '' and 0.
ALTER TABLE order_events ADD COLUMN proc   TEXT    NOT NULL DEFAULT '';
ALTER TABLE order_events ADD COLUMN parent INTEGER NOT NULL DEFAULT 0;  -- 0 for main
ALTER TABLE order_events ADD COLUMN child  INTEGER NOT NULL DEFAULT 0;  -- 0-based among the parent's children

ALTER TABLE order_critical_path ADD COLUMN proc TEXT NOT NULL DEFAULT '';

-- The stretches an order ran, in time order: between two, it was suspended
-- waiting for a result, holding no core. node is the worker of a real run.
-- Kept for the same orders as order_events.
CREATE TABLE order_stretches (
    run_id   INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    order_id INTEGER NOT NULL,
    seq      INTEGER NOT NULL,            -- 0-based
    node     INTEGER NOT NULL,
    start    REAL    NOT NULL,            -- s
    end      REAL    NOT NULL,
    PRIMARY KEY (run_id, order_id, seq)
) WITHOUT ROWID;

-- Per procedure of an orders run (every order counted, whatever
-- order_events keeps): how many orders ran it, their work (s of running),
-- their time on the critical path, and the mean and standard deviation of
-- their duration (end - start, waits included).
CREATE TABLE order_procs (
    run_id        INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    proc          TEXT    NOT NULL,
    orders        INTEGER NOT NULL,
    work          REAL    NOT NULL,
    path_time     REAL    NOT NULL,
    mean_duration REAL    NOT NULL,
    sd_duration   REAL    NOT NULL,
    PRIMARY KEY (run_id, proc)
) WITHOUT ROWID;

-- The scheduler of a real run (run mode's -orders.scheduler); runs stored
-- before this version ran FIFO, the only one then.
ALTER TABLE order_measurements ADD COLUMN scheduler TEXT NOT NULL DEFAULT 'fifo';

-- v_order_nodes: a measured run's workers are order_nodes rows too, so the
-- view no longer needs an order_runs row (which only simulations have);
-- a measured run's load is its busy time over its makespan.
DROP VIEW v_order_nodes;
CREATE VIEW v_order_nodes AS
SELECT r.sweep_id, n.*, n.busy / nullif(coalesce(o.makespan, r.execution_time), 0) AS load
FROM order_nodes n JOIN v_runs r ON r.run_id = n.run_id LEFT JOIN order_runs o ON o.run_id = n.run_id;
