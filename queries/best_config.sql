-- name: best_config
-- description: The best configuration of each program for each objective:
--   the shortest execution time, the highest efficiency and the lowest
--   cost (execution time x processors), from the root interval of each run.
-- param: sweep int = 0 : sweep id; 0 for every run
-- param: program text = '' : program name; '' for every program
-- param: include_doubtful int = 0 : 1 to consider the doubtful runs too (the model's domain left: docs/deviations.md)
-- Doubtful runs are left out by default; doubtful_left_out counts them.
WITH k AS (
    SELECT (SELECT id FROM characteristics WHERE name = 'Execution_time') AS time_id,
           (SELECT id FROM characteristics WHERE name = 'Efficiency') AS eff_id
), c AS (
    SELECT r.run_id, r.program, r.machine, r.grid, r.procs, r.network,
           r.tstart_us, r.tbyte_us, r.power,
           t.value AS time, e.value AS efficiency, t.value * r.procs AS cost
    FROM k, v_runs r
    JOIN intervals i ON i.run_id = r.run_id AND i.parent IS NULL
    JOIN interval_values t ON t.run_id = i.run_id AND t.interval_id = i.id AND t.char_id = k.time_id
    JOIN interval_values e ON e.run_id = i.run_id AND e.interval_id = i.id AND e.char_id = k.eff_id
    WHERE (:sweep = 0 OR r.sweep_id = :sweep)
      AND (:program = '' OR r.program = :program)
      AND (:include_doubtful <> 0 OR NOT r.doubtful)
), ranked AS (
    SELECT c.*,
           row_number() OVER (PARTITION BY program ORDER BY time, run_id) AS by_time,
           row_number() OVER (PARTITION BY program ORDER BY efficiency DESC, run_id) AS by_efficiency,
           row_number() OVER (PARTITION BY program ORDER BY cost, run_id) AS by_cost
    FROM c
)
SELECT o.objective, program, run_id, machine, grid, procs, network, tstart_us, tbyte_us, power,
       time, efficiency, cost,
       (SELECT count(*) FROM v_runs d WHERE d.doubtful AND :include_doubtful = 0 AND d.program = ranked.program
           AND (:sweep = 0 OR d.sweep_id = :sweep)) AS doubtful_left_out
FROM ranked
JOIN (SELECT 'time' AS objective, 1 AS k UNION ALL SELECT 'efficiency', 2 UNION ALL SELECT 'cost', 3) o
  ON (o.k = 1 AND by_time = 1) OR (o.k = 2 AND by_efficiency = 1) OR (o.k = 3 AND by_cost = 1)
ORDER BY program, o.k;
