-- Presage store, version 9: the machine values a prediction used.
--
-- tstart, tbyte and power hold the overrides given (NULL: the machine
-- file's values); the *_used columns hold the values the prediction used,
-- override or machine file: the top-level cluster's message start-up time
-- (s) and time per byte (s), the mean power of the grid's processors.
-- NULL for measured runs and for predictions stored before this version.
ALTER TABLE runs ADD COLUMN tstart_used REAL;
ALTER TABLE runs ADD COLUMN tbyte_used REAL;
ALTER TABLE runs ADD COLUMN power_used REAL;

DROP VIEW v_runs;
CREATE VIEW v_runs AS
SELECT r.id                      AS run_id,
       coalesce(r.sweep_id, 0)   AS sweep_id,
       r.kind, r.engine, r.program, r.trace_id, r.order_trace_id, r.sts_id, r.machine,
       r.grid, r.grid_rank, r.grid_d1, r.grid_d2, r.grid_d3, r.grid_d4,
       r.procs, r.network, r.tstart, r.tbyte, r.power,
       r.tstart_used, r.tbyte_used, r.power_used, r.options,
       r.report_root, r.execution_time,
       r.execution_time * r.procs AS cost,
       r.created_at
FROM runs r;
