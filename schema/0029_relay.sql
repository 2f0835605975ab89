-- Presage store, version 29: an orders simulation through a hub keeps
-- the share of a message's time that held the hub, by size, as JSON
-- (machine.Cluster.Relay, a cluster file's "relay": what run mode's
-- network calibration timed with many messages in flight); '' when a
-- message held the hub for its whole time, as for every run stored
-- before.
ALTER TABLE order_runs ADD COLUMN relay TEXT NOT NULL DEFAULT '';
