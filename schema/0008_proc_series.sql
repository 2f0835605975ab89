-- Presage store, version 8: the per-processor values of a run stored as
-- one row per run, interval and characteristic holding every processor's
-- value, instead of one row per value: a 64x64 run wrote half a million
-- rows, most of the time of its prediction. interval_proc_values becomes
-- a view with the same columns and the same rows, so that queries,
-- views and exports see what they saw.

-- vals is a JSON array indexed by the 0-based processor number: the value
-- (a JSON number, exact: 17 significant digits), or null where none is
-- stored (a zero, except the execution time, which keeps every processor
-- present).
CREATE TABLE interval_proc_series (
    run_id      INTEGER NOT NULL,
    interval_id INTEGER NOT NULL,
    char_id     INTEGER NOT NULL REFERENCES characteristics(id),
    vals        TEXT    NOT NULL,
    PRIMARY KEY (run_id, interval_id, char_id),
    FOREIGN KEY (run_id, interval_id) REFERENCES intervals(run_id, id) ON DELETE CASCADE
) WITHOUT ROWID;

-- The rows of older stores, each series padded with nulls where a
-- processor below its highest has no value.
WITH RECURSIVE
  n(p) AS (SELECT 0 UNION ALL SELECT p + 1 FROM n
           WHERE p < (SELECT coalesce(max(proc), 0) FROM interval_proc_values)),
  s AS (SELECT run_id, interval_id, char_id, max(proc) AS top
        FROM interval_proc_values GROUP BY run_id, interval_id, char_id)
INSERT INTO interval_proc_series(run_id, interval_id, char_id, vals)
SELECT s.run_id, s.interval_id, s.char_id,
       (SELECT json_group_array(v.value ORDER BY n.p)
        FROM n LEFT JOIN interval_proc_values v
          ON v.run_id = s.run_id AND v.interval_id = s.interval_id
         AND v.char_id = s.char_id AND v.proc = n.p
        WHERE n.p <= s.top)
FROM s;

DROP VIEW v_values_long;
DROP TABLE interval_proc_values;

CREATE VIEW interval_proc_values AS
SELECT s.run_id, s.interval_id, CAST(e.key AS INTEGER) AS proc, s.char_id,
       CAST(e.value AS REAL) AS value
FROM interval_proc_series s, json_each(s.vals) e
WHERE e.type <> 'null';

-- v_values_long as schema 3 made it, over the view.
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
