-- Presage store, version 18: runs found by their configuration.
--
-- A sweep or a search copies a configuration predicted already (by
-- predict or by another sweep) instead of simulating it again, and
-- predict shows the stored run of a configuration it predicted before:
-- both look runs up by trace, machine and grid first.
CREATE INDEX runs_config ON runs(trace_id, machine_id, grid);
