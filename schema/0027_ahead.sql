-- Presage store, version 27: an orders simulation keeps how many orders
-- its cluster's runtime started ahead on a busy core (machine.Cluster.Ahead,
-- through a hub: a cluster file's "ahead"), which the simulator followed.
-- 0 for none, as for every run stored before.
ALTER TABLE order_runs ADD COLUMN ahead INTEGER NOT NULL DEFAULT 0;
