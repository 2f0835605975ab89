-- Presage store, version 17: start-up times and times per byte in
-- microseconds everywhere, and named so.
--
-- The flags (--tstart 10), the machine files and presage list runs spoke
-- microseconds while the store, its views and the exports held seconds
-- (1e-05), so that WHERE tstart = 10 found nothing. Every such column is
-- now in microseconds and its name says it (tstart_us, tbyte_us,
-- tstart_used_us, tbyte_used_us): runs, v_runs, v_values_long,
-- v_intervals_wide and the exports. Values are rounded to 12 significant
-- digits, so that 10 given is 10 stored (not 10.000000000000002).
DROP VIEW v_intervals_wide;
DROP VIEW v_values_long;

ALTER TABLE runs RENAME COLUMN tstart TO tstart_us;
ALTER TABLE runs RENAME COLUMN tbyte TO tbyte_us;
ALTER TABLE runs RENAME COLUMN tstart_used TO tstart_used_us;
ALTER TABLE runs RENAME COLUMN tbyte_used TO tbyte_used_us;
UPDATE runs SET tstart_us      = CAST(printf('%.12g', tstart_us * 1e6) AS REAL),
                tbyte_us       = CAST(printf('%.12g', tbyte_us * 1e6) AS REAL),
                tstart_used_us = CAST(printf('%.12g', tstart_used_us * 1e6) AS REAL),
                tbyte_used_us  = CAST(printf('%.12g', tbyte_used_us * 1e6) AS REAL);

DROP VIEW v_runs;
CREATE VIEW v_runs AS
SELECT r.id                      AS run_id,
       coalesce(r.sweep_id, 0)   AS sweep_id,
       r.kind, r.engine, r.program, r.trace_id, r.order_trace_id, r.sts_id, r.machine,
       r.grid, r.grid_rank, r.grid_d1, r.grid_d2, r.grid_d3, r.grid_d4,
       r.procs, r.network, r.tstart_us, r.tbyte_us, r.power,
       r.tstart_used_us, r.tbyte_used_us, r.power_used, r.options,
       r.report_root, r.execution_time,
       r.execution_time * r.procs AS cost,
       r.doubtful,
       r.created_at
FROM runs r;

CREATE VIEW v_values_long AS
SELECT r.sweep_id, r.run_id, r.kind, r.program, r.machine, r.grid, r.procs,
       r.network, r.tstart_us, r.tbyte_us, r.power,
       i.interval_id, i.path, i.type, i.level, i.line,
       NULL AS proc,
       c.name AS characteristic, c.unit, c.family, v.value
FROM interval_values v
JOIN v_runs r          ON r.run_id = v.run_id
JOIN v_intervals i     ON i.run_id = v.run_id AND i.interval_id = v.interval_id
JOIN characteristics c ON c.id = v.char_id
UNION ALL
SELECT r.sweep_id, r.run_id, r.kind, r.program, r.machine, r.grid, r.procs,
       r.network, r.tstart_us, r.tbyte_us, r.power,
       i.interval_id, i.path, i.type, i.level, i.line,
       p.proc,
       c.name, c.unit, c.family, p.value
FROM interval_proc_values p
JOIN v_runs r          ON r.run_id = p.run_id
JOIN v_intervals i     ON i.run_id = p.run_id AND i.interval_id = p.interval_id
JOIN characteristics c ON c.id = p.char_id;
