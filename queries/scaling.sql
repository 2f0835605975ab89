-- name: scaling
-- description: Execution time, efficiency and speedup of every interval
--   against the number of processors. Intervals of different runs are
--   matched by their path; the speedup is against the run of the same
--   program with the fewest processors (base_procs), so it is the absolute
--   speedup where a one-processor run exists.
-- param: sweep int = 0 : sweep id; 0 for every run
-- param: program text = '' : program name; '' for every program
-- param: path text = '' : interval path, e.g. Main; '' for every interval
SELECT program, path, procs, grid, run_id,
       time, efficiency,
       first_value(procs) OVER w AS base_procs,
       first_value(time) OVER w / nullif(time, 0) AS speedup
FROM (
    SELECT program, path, procs, grid, run_id,
           "Execution_time" AS time, "Efficiency" AS efficiency
    FROM v_intervals_wide
    WHERE (:sweep = 0 OR sweep_id = :sweep)
      AND (:program = '' OR program = :program)
      AND (:path = '' OR path = :path)
)
WINDOW w AS (PARTITION BY program, path ORDER BY procs, time, run_id)
ORDER BY program, path, procs, run_id;
