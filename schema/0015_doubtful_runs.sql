-- Presage store, version 15: doubtful runs.
--
-- A prediction whose configuration leaves the model's domain (a template
-- distributed over more processors than it has elements in a dimension:
-- docs/deviations.md, "Doubtful configurations") carries a doubtful
-- warning, and its run is marked so that the answers a user plans with
-- (the sweep report's fastest configuration, best_config, search) can
-- leave it out and say so. Runs stored before are not doubtful.
ALTER TABLE run_warnings ADD COLUMN doubtful INTEGER NOT NULL DEFAULT 0;
ALTER TABLE runs ADD COLUMN doubtful INTEGER NOT NULL DEFAULT 0;

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
       r.doubtful,
       r.created_at
FROM runs r;
