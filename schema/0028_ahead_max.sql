-- Presage store, version 28: an orders simulation keeps how many orders
-- its cluster's runtime could come to start ahead on a busy core
-- (machine.Cluster.AheadMax, a cluster file's "ahead_max": one more each
-- time a core's order ended before the next start came), which the
-- simulator followed. 0 for as many as ahead, as for every run stored
-- before.
ALTER TABLE order_runs ADD COLUMN ahead_max INTEGER NOT NULL DEFAULT 0;
