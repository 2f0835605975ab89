-- name: func_profile
-- description: Function time profile of a trace: per Lib-DVM function the
--   number of calls, the user time before the calls (call_time) and the
--   time inside the run-time system (ret_time), with its share of the
--   trace's run-time system time.
-- param: trace int = 0 : trace id; 0 for the latest ingested trace
WITH t AS (SELECT CASE WHEN :trace = 0 THEN (SELECT max(id) FROM traces) ELSE :trace END AS id)
SELECT func,
       count(*) AS calls,
       total(call_time) AS call_time,
       total(ret_time) AS ret_time,
       round(100.0 * total(ret_time) / nullif((SELECT total(ret_time) FROM calls WHERE trace_id = (SELECT id FROM t)), 0), 2) AS ret_pct
FROM calls
WHERE trace_id = (SELECT id FROM t)
GROUP BY func
ORDER BY ret_time DESC, func;
