-- name: measured_vs_predicted
-- description: A measured run and a prediction of the same program side by
--   side: for every interval found in both (matched by type, source line,
--   expression and file name), a characteristic measured and predicted,
--   with the absolute and relative error. A real run's Main is matched
--   with the program-level loop of an -e4 trace (Main's only child, a Seq
--   at Main's line), as `presage compare` does: the traced run's Main also
--   holds its start-up, which a measured Main does not (docs/compare.md).
--   `presage compare` does the same with structural matching and a summary.
-- param: measured int : measured run id
-- param: predicted int : predicted run id
-- param: characteristic text = 'Execution_time' : characteristic; '' for all
WITH m AS MATERIALIZED (
    SELECT i.type, i.line, coalesce(i.expr, -1) AS expr, i.file, i.level, c.name AS characteristic, v.value
    FROM intervals i
    JOIN interval_values v ON v.run_id = i.run_id AND v.interval_id = i.id
    JOIN characteristics c ON c.id = v.char_id
    WHERE i.run_id = :measured AND (:characteristic = '' OR c.name = :characteristic)
), loop AS MATERIALIZED (
    SELECT l.id
    FROM intervals r
    JOIN intervals l ON l.run_id = r.run_id AND l.parent = r.id
    WHERE r.run_id = :predicted AND r.parent IS NULL
      AND l.type = 'Seq' AND l.line = r.line AND l.file = r.file
      AND (SELECT count(*) FROM intervals s WHERE s.run_id = r.run_id AND s.parent = r.id) = 1
), p AS MATERIALIZED (
    SELECT i.type, CASE WHEN i.id IN (SELECT id FROM loop) THEN 'Main' ELSE i.type END AS matched_as,
           i.line, coalesce(i.expr, -1) AS expr, i.file, i.level, c.name AS characteristic, v.value
    FROM intervals i
    JOIN interval_values v ON v.run_id = i.run_id AND v.interval_id = i.id
    JOIN characteristics c ON c.id = v.char_id
    WHERE i.run_id = :predicted AND (:characteristic = '' OR c.name = :characteristic)
      AND NOT (i.parent IS NULL AND EXISTS (SELECT 1 FROM loop))
)
SELECT p.type, p.file, p.line, nullif(p.expr, -1) AS expr, p.characteristic,
       m.value AS measured, p.value AS predicted,
       p.value - m.value AS abs_error,
       (p.value - m.value) / nullif(m.value, 0) AS rel_error
FROM p JOIN m ON m.type = p.matched_as AND m.line = p.line AND m.expr = p.expr
             AND m.file = p.file AND m.characteristic = p.characteristic
ORDER BY p.level, p.line, p.characteristic;
