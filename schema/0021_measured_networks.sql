-- Presage store, version 21: measured networks, hubs and worker processes.
--
-- An orders simulation keeps the network it
-- was played on when a measured one (machine.Cluster.Messages, read from
-- a cluster description file) priced its messages piece-wise: the times
-- of messages by size, as a JSON array of {"bytes", "seconds"} ('' when
-- latency and bandwidth priced them). latency and bandwidth then hold the
-- line fitted to the same measurements.
ALTER TABLE order_runs ADD COLUMN messages TEXT NOT NULL DEFAULT '';
-- hub: 1 when every message went through one hub taking one message at a
-- time on each of its links (machine.Cluster.Hub, as between run mode's
-- worker processes); 0 when messages did not slow each other down.
ALTER TABLE order_runs ADD COLUMN hub INTEGER NOT NULL DEFAULT 0;

-- A measured run whose workers were the cores of worker processes (run
-- mode's -orders.procs, orders/measured's "cores") keeps their cores: it
-- is stored as a run of workers / cores nodes (the processes) of cores
-- cores each. 0 for a run in one process, and for runs stored before.
ALTER TABLE order_measurements ADD COLUMN cores INTEGER NOT NULL DEFAULT 0;
