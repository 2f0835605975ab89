SELECT count(*) AS n FROM runs
