-- name: compare_runs
-- description: Two runs side by side: the interval values of run_a and
--   run_b for the intervals of either, matched by path, with the
--   difference (b - a) and the ratio (b / a).
-- param: run_a int : first run id
-- param: run_b int : second run id
-- param: characteristic text = 'Execution_time' : characteristic; '' for all
WITH a AS MATERIALIZED (
    SELECT path, characteristic, value FROM v_values_long
    WHERE run_id = :run_a AND proc IS NULL AND (:characteristic = '' OR characteristic = :characteristic)
), b AS MATERIALIZED (
    SELECT path, characteristic, value FROM v_values_long
    WHERE run_id = :run_b AND proc IS NULL AND (:characteristic = '' OR characteristic = :characteristic)
)
SELECT coalesce(a.path, b.path) AS path,
       coalesce(a.characteristic, b.characteristic) AS characteristic,
       a.value AS a, b.value AS b,
       b.value - a.value AS diff,
       b.value / nullif(a.value, 0) AS ratio
FROM a FULL OUTER JOIN b ON a.path = b.path AND a.characteristic = b.characteristic
ORDER BY 1, 2;
