-- Presage store, version 4: sweeps identified by their definition, so that
-- an interrupted sweep resumes and shards of one sweep merge.

-- kind: 'sweep' (cartesian product) or 'search' (optimal-configuration
-- search). def_hash is the sha256 of the definition without names or store
-- ids (sim/sweep.Definition.Hash); definition is that definition as JSON.
-- configs counts the configurations of the whole definition (all shards),
-- skipped the grids left out for exceeding a machine's processors.
ALTER TABLE sweeps ADD COLUMN kind TEXT NOT NULL DEFAULT 'sweep';
ALTER TABLE sweeps ADD COLUMN def_hash TEXT;
ALTER TABLE sweeps ADD COLUMN definition TEXT NOT NULL DEFAULT '{}';
ALTER TABLE sweeps ADD COLUMN configs INTEGER NOT NULL DEFAULT 0;
ALTER TABLE sweeps ADD COLUMN skipped INTEGER NOT NULL DEFAULT 0;
CREATE UNIQUE INDEX sweeps_def_hash ON sweeps(def_hash);

-- Position of a sweep's run in the canonical order of its configurations:
-- at most one run per position, which makes resuming idempotent.
ALTER TABLE runs ADD COLUMN sweep_index INTEGER;
CREATE UNIQUE INDEX runs_sweep_index ON runs(sweep_id, sweep_index) WHERE sweep_index IS NOT NULL;
