-- name: calibration_probes
-- description: The probe of every stored calibration (block orders.probe,
--   timed once a round: the machine's speed for multiply-adds while it
--   calibrated, docs/orders-sim.md): per calibration and machine, its
--   runs, the median, fastest and slowest c (seconds per multiply-add),
--   and how much slower its median is than the fastest median of the
--   machine's calibrations. Two calibrations of a machine price the
--   blocks alike only where their probes agree.
-- param: machine text = '' : machine name; '' for every machine
WITH c AS (
    SELECT r.calibration_id, r.machine, r.seconds / r.f AS c,
           row_number() OVER w AS k,
           count(*) OVER (PARTITION BY r.calibration_id, r.machine) AS n
    FROM calibration_rows r
    WHERE r.block = 'orders.probe' AND r.copies = 1
      AND (:machine = '' OR r.machine = :machine)
    WINDOW w AS (PARTITION BY r.calibration_id, r.machine ORDER BY r.seconds / r.f)
), m AS (
    SELECT calibration_id, machine, max(n) AS runs, min(c) AS c_min, max(c) AS c_max,
           avg(CASE WHEN k IN ((n + 1) / 2, n / 2 + 1) THEN c END) AS c_median
    FROM c
    GROUP BY calibration_id, machine
)
SELECT cal.id AS calibration_id, cal.name, cal.ingested_at, m.machine, m.runs,
       m.c_median, m.c_min, m.c_max,
       m.c_median / min(m.c_median) OVER (PARTITION BY m.machine) - 1 AS slower_than_fastest
FROM m JOIN calibrations cal ON cal.id = m.calibration_id
ORDER BY m.machine, cal.id;
