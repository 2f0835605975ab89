-- name: scaling
-- description: Execution time, efficiency and speedup of every interval
--   against the number of processors. Intervals of different runs are
--   matched by their path; the speedup is against the run with the fewest
--   processors (base_procs) of the same program, kind, machine, network and
--   overrides (tstart_us, tbyte_us, power), so it is the absolute speedup where
--   such a one-processor run exists: a machine's runs are never compared
--   with another's.
-- param: sweep int = 0 : sweep id; 0 for every run
-- param: program text = '' : program name; '' for every program
-- param: path text = '' : interval path, e.g. Main; '' for every interval
-- Two values per interval are looked up by key instead of pivoting all
-- values through v_intervals_wide.
WITH k AS (
    SELECT (SELECT id FROM characteristics WHERE name = 'Execution_time') AS time_id,
           (SELECT id FROM characteristics WHERE name = 'Efficiency') AS eff_id
)
SELECT program, path, kind, machine, network, tstart_us, tbyte_us, power, procs, grid, run_id, time, efficiency,
       first_value(procs) OVER w AS base_procs,
       first_value(time) OVER w / nullif(time, 0) AS speedup
FROM (
    SELECT r.program, i.path, r.kind, r.machine, r.network, r.tstart_us, r.tbyte_us, r.power,
           r.procs, r.grid, r.run_id, t.value AS time, e.value AS efficiency
    FROM k, v_runs r
    JOIN v_intervals i ON i.run_id = r.run_id
    LEFT JOIN interval_values t ON t.run_id = i.run_id AND t.interval_id = i.interval_id AND t.char_id = k.time_id
    LEFT JOIN interval_values e ON e.run_id = i.run_id AND e.interval_id = i.interval_id AND e.char_id = k.eff_id
    WHERE (:sweep = 0 OR r.sweep_id = :sweep)
      AND (:program = '' OR r.program = :program)
      AND (:path = '' OR i.path = :path)
)
WINDOW w AS (PARTITION BY program, path, kind, machine, network, tstart_us, tbyte_us, power ORDER BY procs, time, run_id)
ORDER BY program, path, kind, machine, network, tstart_us, tbyte_us, power, procs, run_id;
