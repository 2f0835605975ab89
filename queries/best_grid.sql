-- name: best_grid
-- description: The fastest grid of each processor count: for every
--   program, kind, machine, network and overrides (tstart_us, tbyte_us,
--   power) and every processor count, the grid with the shortest
--   execution time (ties: the lower run id), with the number of grids
--   compared and how much slower the slowest of them is. Doubtful runs
--   (docs/deviations.md) are left out unless include_doubtful = 1.
-- param: sweep int = 0 : sweep id; 0 for every run
-- param: program text = '' : program name; '' for every program
-- param: include_doubtful int = 0 : 1 to compare the doubtful runs too
WITH c AS (
    SELECT r.program, r.kind, r.machine, r.network, r.tstart_us, r.tbyte_us, r.power, r.procs,
           r.grid, r.run_id, r.execution_time AS time,
           row_number() OVER w AS rank,
           count(*) OVER p AS grids,
           max(r.execution_time) OVER p AS slowest
    FROM v_runs r
    WHERE r.kind = 'predicted'
      AND (:sweep = 0 OR r.sweep_id = :sweep)
      AND (:program = '' OR r.program = :program)
      AND (:include_doubtful <> 0 OR NOT r.doubtful)
    WINDOW p AS (PARTITION BY r.program, r.kind, r.machine, r.network, r.tstart_us, r.tbyte_us, r.power, r.procs),
           w AS (p ORDER BY r.execution_time, r.run_id)
)
SELECT program, machine, network, tstart_us, tbyte_us, power, procs, grid, run_id, time, grids,
       slowest / nullif(time, 0) AS slowest_ratio
FROM c
WHERE rank = 1
ORDER BY program, machine, network, tstart_us, tbyte_us, power, procs;
