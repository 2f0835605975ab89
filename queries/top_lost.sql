-- name: top_lost
-- description: The intervals of a run that lose the most time, with the
--   breakdown of the lost time (insufficient parallelism, communication,
--   idle) and the potential losses (load imbalance, synchronization, time
--   variation) and overlap.
-- param: run int = 0 : run id; 0 for the latest run
-- param: limit int = 10 : number of intervals
-- The pivot is written out rather than read from v_intervals_wide: SQLite
-- does not push a filter holding a subquery (the latest run) into the
-- view's GROUP BY, and would pivot every run. Paths are looked up for the
-- top intervals only.
WITH r AS (SELECT CASE WHEN :run = 0 THEN (SELECT max(id) FROM runs) ELSE :run END AS id),
w AS (
    SELECT v.run_id, v.interval_id,
           max(CASE c.name WHEN 'Lost_time' THEN v.value END) AS lost_time,
           max(CASE c.name WHEN 'Total_time' THEN v.value END) AS total_time,
           max(CASE c.name WHEN 'Insuff_parallelism' THEN v.value END) AS insuff_parallelism,
           max(CASE c.name WHEN 'Insuff_parallelism_usr' THEN v.value END) AS insuff_parallelism_usr,
           max(CASE c.name WHEN 'Insuff_parallelism_sys' THEN v.value END) AS insuff_parallelism_sys,
           max(CASE c.name WHEN 'Communication' THEN v.value END) AS communication,
           max(CASE c.name WHEN 'Idle' THEN v.value END) AS idle,
           max(CASE c.name WHEN 'Load_imbalance' THEN v.value END) AS load_imbalance,
           max(CASE c.name WHEN 'Synchronization' THEN v.value END) AS synchronization,
           max(CASE c.name WHEN 'Time_variation' THEN v.value END) AS time_variation,
           max(CASE c.name WHEN 'Overlap' THEN v.value END) AS overlap
    FROM r
    JOIN interval_values v ON v.run_id = r.id
    JOIN characteristics c ON c.id = v.char_id
    GROUP BY v.run_id, v.interval_id
), top AS MATERIALIZED (
    SELECT * FROM w ORDER BY lost_time DESC, interval_id LIMIT :limit
)
SELECT i.path, i.level, i.count, top.lost_time, top.total_time,
       round(100.0 * top.lost_time / nullif(top.total_time, 0), 2) AS lost_pct,
       insuff_parallelism, insuff_parallelism_usr, insuff_parallelism_sys,
       communication, idle, load_imbalance, synchronization, time_variation, overlap
FROM top
JOIN v_intervals i ON i.run_id = top.run_id AND i.interval_id = top.interval_id
ORDER BY top.lost_time DESC, i.path;
