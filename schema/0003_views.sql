-- Presage store, version 3: views for analysis tools (pandas, DuckDB, the sqlite3
-- shell) and for the exporters, whose tables are defined by these views.
-- sweep_id is 0 for a run that belongs to no sweep, as in the exported
-- partitions (sweep_id=0).

-- The configurations: one row per run.
CREATE VIEW v_runs AS
SELECT r.id                      AS run_id,
       coalesce(r.sweep_id, 0)   AS sweep_id,
       r.kind, r.program, r.trace_id, r.sts_id, r.machine,
       r.grid, r.grid_rank, r.grid_d1, r.grid_d2, r.grid_d3, r.grid_d4,
       r.procs, r.network, r.tstart, r.tbyte, r.power, r.options,
       r.report_root, r.execution_time,
       r.execution_time * r.procs AS cost,
       r.created_at
FROM runs r;

-- The interval trees, each interval with its path from the root:
-- "Main->Seq@jac.fdv:12->Par@jac.fdv:14". The path is built upwards, from
-- each interval through its ancestors, so that every step is a primary
-- key lookup.
CREATE VIEW v_intervals AS
WITH RECURSIVE up(run_id, id, parent, path) AS (
    SELECT run_id, id, parent,
           CASE WHEN parent IS NULL THEN type ELSE type || '@' || file || ':' || line END
    FROM intervals
    UNION ALL
    SELECT u.run_id, u.id, p.parent,
           CASE WHEN p.parent IS NULL THEN p.type ELSE p.type || '@' || p.file || ':' || p.line END || '->' || u.path
    FROM up u JOIN intervals p ON p.run_id = u.run_id AND p.id = u.parent
)
SELECT r.sweep_id, i.run_id, i.id AS interval_id, i.parent, i.ord, i.level,
       i.type, i.file, i.line, i.expr, i.count, u.path
FROM intervals i
JOIN up u     ON u.run_id = i.run_id AND u.id = i.id AND u.parent IS NULL
JOIN v_runs r ON r.run_id = i.run_id;

-- The tidy (long) table: one row per run x interval x characteristic, and
-- per processor (proc not NULL) for the per-processor values, of which
-- only the non-zero ones are stored.
CREATE VIEW v_values_long AS
SELECT r.sweep_id, r.run_id, r.kind, r.program, r.machine, r.grid, r.procs,
       r.network, r.tstart, r.tbyte, r.power,
       i.interval_id, i.path, i.type, i.level, i.line,
       NULL AS proc,
       c.name AS characteristic, c.unit, c.family, v.value
FROM interval_values v
JOIN v_runs r          ON r.run_id = v.run_id
JOIN v_intervals i     ON i.run_id = v.run_id AND i.interval_id = v.interval_id
JOIN characteristics c ON c.id = v.char_id
UNION ALL
SELECT r.sweep_id, r.run_id, r.kind, r.program, r.machine, r.grid, r.procs,
       r.network, r.tstart, r.tbyte, r.power,
       i.interval_id, i.path, i.type, i.level, i.line,
       p.proc,
       c.name, c.unit, c.family, p.value
FROM interval_proc_values p
JOIN v_runs r          ON r.run_id = p.run_id
JOIN v_intervals i     ON i.run_id = p.run_id AND i.interval_id = p.interval_id
JOIN characteristics c ON c.id = p.char_id;

-- The comparative characteristics (min, max, mean over the processors).
CREATE VIEW v_stats_long AS
SELECT r.sweep_id, r.run_id, r.program, r.grid, r.procs,
       i.interval_id, i.path, i.type, i.level, i.line,
       c.name AS characteristic, c.unit, c.family,
       s.min, s.min_proc, s.max, s.max_proc, s.mean
FROM interval_stats s
JOIN v_runs r          ON r.run_id = s.run_id
JOIN v_intervals i     ON i.run_id = s.run_id AND i.interval_id = s.interval_id
JOIN characteristics c ON c.id = s.char_id;

-- BEGIN GENERATED v_intervals_wide (from result.Chars; schema/views.go recreates it whenever the list changes)
CREATE VIEW v_intervals_wide AS
SELECT r.sweep_id, r.run_id, r.kind, r.program, r.machine, r.grid, r.procs,
       r.network, r.tstart, r.tbyte, r.power,
       i.interval_id, i.parent, i.path, i.type, i.level, i.file, i.line, i.count,
       max(CASE v.char_id WHEN 0 THEN v.value END) AS "Efficiency",
       max(CASE v.char_id WHEN 1 THEN v.value END) AS "Execution_time",
       max(CASE v.char_id WHEN 2 THEN v.value END) AS "Total_time",
       max(CASE v.char_id WHEN 3 THEN v.value END) AS "Productive_time",
       max(CASE v.char_id WHEN 4 THEN v.value END) AS "Productive_CPU_time",
       max(CASE v.char_id WHEN 5 THEN v.value END) AS "Productive_SYS_time",
       max(CASE v.char_id WHEN 6 THEN v.value END) AS "IO_time",
       max(CASE v.char_id WHEN 7 THEN v.value END) AS "Lost_time",
       max(CASE v.char_id WHEN 8 THEN v.value END) AS "Insuff_parallelism",
       max(CASE v.char_id WHEN 9 THEN v.value END) AS "Insuff_parallelism_usr",
       max(CASE v.char_id WHEN 10 THEN v.value END) AS "Insuff_parallelism_sys",
       max(CASE v.char_id WHEN 11 THEN v.value END) AS "Communication",
       max(CASE v.char_id WHEN 12 THEN v.value END) AS "Communication_SYNCH",
       max(CASE v.char_id WHEN 13 THEN v.value END) AS "Idle",
       max(CASE v.char_id WHEN 14 THEN v.value END) AS "Load_imbalance",
       max(CASE v.char_id WHEN 15 THEN v.value END) AS "Synchronization",
       max(CASE v.char_id WHEN 16 THEN v.value END) AS "Time_variation",
       max(CASE v.char_id WHEN 17 THEN v.value END) AS "Overlap",
       max(CASE v.char_id WHEN 18 THEN v.value END) AS "Num_op_io",
       max(CASE v.char_id WHEN 19 THEN v.value END) AS "IO_comm",
       max(CASE v.char_id WHEN 20 THEN v.value END) AS "IO_real_synch",
       max(CASE v.char_id WHEN 21 THEN v.value END) AS "IO_synch",
       max(CASE v.char_id WHEN 22 THEN v.value END) AS "IO_vary",
       max(CASE v.char_id WHEN 23 THEN v.value END) AS "IO_overlap",
       max(CASE v.char_id WHEN 24 THEN v.value END) AS "Num_op_reduct",
       max(CASE v.char_id WHEN 25 THEN v.value END) AS "Wait_reduction",
       max(CASE v.char_id WHEN 26 THEN v.value END) AS "Reduction_real_synch",
       max(CASE v.char_id WHEN 27 THEN v.value END) AS "Reduction_synch",
       max(CASE v.char_id WHEN 28 THEN v.value END) AS "Reduction_vary",
       max(CASE v.char_id WHEN 29 THEN v.value END) AS "Reduction_overlap",
       max(CASE v.char_id WHEN 30 THEN v.value END) AS "Num_op_shadow",
       max(CASE v.char_id WHEN 31 THEN v.value END) AS "Wait_shadow",
       max(CASE v.char_id WHEN 32 THEN v.value END) AS "Shadow_real_synch",
       max(CASE v.char_id WHEN 33 THEN v.value END) AS "Shadow_synch",
       max(CASE v.char_id WHEN 34 THEN v.value END) AS "Shadow_vary",
       max(CASE v.char_id WHEN 35 THEN v.value END) AS "Shadow_overlap",
       max(CASE v.char_id WHEN 36 THEN v.value END) AS "Num_op_remote",
       max(CASE v.char_id WHEN 37 THEN v.value END) AS "Remote_access",
       max(CASE v.char_id WHEN 38 THEN v.value END) AS "Remote_real_synch",
       max(CASE v.char_id WHEN 39 THEN v.value END) AS "Remote_synch",
       max(CASE v.char_id WHEN 40 THEN v.value END) AS "Remote_vary",
       max(CASE v.char_id WHEN 41 THEN v.value END) AS "Remote_overlap",
       max(CASE v.char_id WHEN 42 THEN v.value END) AS "Num_op_redist",
       max(CASE v.char_id WHEN 43 THEN v.value END) AS "Redistribution",
       max(CASE v.char_id WHEN 44 THEN v.value END) AS "Redistribution_real_synch",
       max(CASE v.char_id WHEN 45 THEN v.value END) AS "Redistribution_synch",
       max(CASE v.char_id WHEN 46 THEN v.value END) AS "Redistribution_vary",
       max(CASE v.char_id WHEN 47 THEN v.value END) AS "Redistribution_overlap",
       max(CASE v.char_id WHEN 48 THEN v.value END) AS "CPU_time",
       max(CASE v.char_id WHEN 49 THEN v.value END) AS "CPU_time_usr",
       max(CASE v.char_id WHEN 50 THEN v.value END) AS "CPU_time_sys",
       max(CASE v.char_id WHEN 51 THEN v.value END) AS "Processors",
       max(CASE v.char_id WHEN 52 THEN v.value END) AS "Threads_amount",
       max(CASE v.char_id WHEN 53 THEN v.value END) AS "Starts",
       max(CASE v.char_id WHEN 54 THEN v.value END) AS "Threads_user_time",
       max(CASE v.char_id WHEN 55 THEN v.value END) AS "Threads_system_time",
       max(CASE v.char_id WHEN 56 THEN v.value END) AS "GPU_productive_time",
       max(CASE v.char_id WHEN 57 THEN v.value END) AS "GPU_lost_time"
FROM v_intervals i
JOIN v_runs r ON r.run_id = i.run_id
JOIN interval_values v ON v.run_id = i.run_id AND v.interval_id = i.interval_id
GROUP BY r.sweep_id, r.run_id, i.interval_id;
-- END GENERATED v_intervals_wide
