-- Presage store, version 21: an orders simulation keeps the network it
-- was played on when a measured one (machine.Cluster.Messages, read from
-- a cluster description file) priced its messages piece-wise: the times
-- of messages by size, as a JSON array of {"bytes", "seconds"} ('' when
-- latency and bandwidth priced them). latency and bandwidth then hold the
-- line fitted to the same measurements.
ALTER TABLE order_runs ADD COLUMN messages TEXT NOT NULL DEFAULT '';
