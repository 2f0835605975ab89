-- name: top_lost
-- description: The intervals of a run that lose the most time, with the
--   breakdown of the lost time (insufficient parallelism, communication,
--   idle) and the potential losses (load imbalance, synchronization, time
--   variation) and overlap.
-- param: run int = 0 : run id; 0 for the latest run
-- param: limit int = 10 : number of intervals
SELECT path, level, count,
       "Lost_time" AS lost_time,
       "Total_time" AS total_time,
       round(100.0 * "Lost_time" / nullif("Total_time", 0), 2) AS lost_pct,
       "Insuff_parallelism" AS insuff_parallelism,
       "Insuff_parallelism_usr" AS insuff_parallelism_usr,
       "Insuff_parallelism_sys" AS insuff_parallelism_sys,
       "Communication" AS communication,
       "Idle" AS idle,
       "Load_imbalance" AS load_imbalance,
       "Synchronization" AS synchronization,
       "Time_variation" AS time_variation,
       "Overlap" AS overlap
FROM v_intervals_wide
WHERE run_id = CASE WHEN :run = 0 THEN (SELECT max(id) FROM runs) ELSE :run END
ORDER BY "Lost_time" DESC, path
LIMIT :limit;
