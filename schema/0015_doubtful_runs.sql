-- Presage store, version 15: doubtful runs.
--
-- A prediction whose configuration leaves the model's domain (a template
-- distributed over more processors than it has elements in a dimension:
-- docs/deviations.md, "Doubtful configurations") carries a doubtful
-- warning, and its run is marked so that the answers a user plans with
-- (the sweep report's fastest configuration, best_config, search) can
-- leave it out and say so. Runs stored before are not doubtful.
ALTER TABLE run_warnings ADD COLUMN doubtful INTEGER NOT NULL DEFAULT 0;
ALTER TABLE runs ADD COLUMN doubtful INTEGER NOT NULL DEFAULT 0;
-- (v_runs gets the column with schema 17's units.)
