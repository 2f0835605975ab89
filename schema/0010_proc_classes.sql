-- Presage store, version 10: the per-processor values of an interval
-- stored once per class of processors with equal values. Processors of a
-- grid fall into a few such classes (corners, edges, inside; the first or
-- second processor of a node), and a 64x64 prediction wrote 10 MB of
-- numbers, 516,000 of them for 438 distinct values, in most of its time.
--
-- classes is a JSON array indexed by the 0-based processor number: the
-- processor's class, or null for a processor without values. When an
-- interval has a row here, the vals of its interval_proc_series rows are
-- indexed by class instead of by processor (the same JSON numbers, or
-- null where the class's value is not stored). Intervals stored before
-- this version have no row here: their vals stay indexed by processor.
CREATE TABLE interval_proc_classes (
    run_id      INTEGER NOT NULL,
    interval_id INTEGER NOT NULL,
    classes     TEXT    NOT NULL,
    PRIMARY KEY (run_id, interval_id),
    FOREIGN KEY (run_id, interval_id) REFERENCES intervals(run_id, id) ON DELETE CASCADE
) WITHOUT ROWID;

-- The same rows as before, from either form.
DROP VIEW interval_proc_values;
CREATE VIEW interval_proc_values AS
SELECT s.run_id, s.interval_id, CAST(e.key AS INTEGER) AS proc, s.char_id,
       CAST(e.value AS REAL) AS value
FROM interval_proc_series s, json_each(s.vals) e
WHERE e.type <> 'null'
  AND NOT EXISTS (SELECT 1 FROM interval_proc_classes c
                  WHERE c.run_id = s.run_id AND c.interval_id = s.interval_id)
UNION ALL
SELECT run_id, interval_id, proc, char_id, CAST(value AS REAL)
FROM (SELECT s.run_id, s.interval_id, CAST(p.key AS INTEGER) AS proc, s.char_id,
             s.vals ->> p.value AS value
      FROM interval_proc_classes c
      JOIN interval_proc_series s ON s.run_id = c.run_id AND s.interval_id = c.interval_id,
           json_each(c.classes) p
      WHERE p.type = 'integer')
WHERE value IS NOT NULL;
