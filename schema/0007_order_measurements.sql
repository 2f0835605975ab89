-- Presage store, version 7: measured runs of orders programs, and
-- simulations in which waiting orders resume on any free node.
--
-- A real run of an orders program (package orders, run mode with
-- -orders.out) writes a measured-run file (orders/measured). Stored, it is
-- a row here, kept once per content like every ingested file, and a
-- measured run (engine 'orders') whose characteristics are the workers'
-- time, as a simulation's are the nodes' (docs/orders-sim.md), so that
-- presage compare puts it beside the prediction of the same run.
CREATE TABLE order_measurements (
    id          INTEGER PRIMARY KEY,
    name        TEXT    NOT NULL,          -- file base name without .jsonl
    path        TEXT    NOT NULL,          -- as given to the ingest
    sha256      TEXT    NOT NULL UNIQUE,
    bytes       INTEGER NOT NULL,
    program     TEXT    NOT NULL,
    machine     TEXT    NOT NULL,
    workers     INTEGER NOT NULL,
    migrate     INTEGER NOT NULL,          -- 1: orders resumed on any free worker
    orders      INTEGER NOT NULL,
    makespan    REAL    NOT NULL,          -- s
    started     TEXT    NOT NULL,          -- RFC 3339, UTC
    ingested_at TEXT    NOT NULL
);

-- The measured run of a measured-run file.
ALTER TABLE runs ADD COLUMN measurement_id INTEGER REFERENCES order_measurements(id);

-- Whether the simulation let an order whose result arrived resume on any
-- free node (ordersim.Options.Migrate, run mode's -orders.migrate).
ALTER TABLE order_runs ADD COLUMN migrate INTEGER NOT NULL DEFAULT 0;
