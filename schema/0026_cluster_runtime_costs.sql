-- Presage store, version 26: an orders simulation keeps the runtime's own
-- costs per order and per wait its cluster gave (machine.Cluster.OrderCost
-- and WaitCost, seconds: network mode times them on worker processes),
-- which the simulator charged in place of its trace's (order_traces'
-- order_cost and wait_cost). 0 and 0 when the trace's were charged, as for
-- every run stored before.
ALTER TABLE order_runs ADD COLUMN order_cost REAL NOT NULL DEFAULT 0;
ALTER TABLE order_runs ADD COLUMN wait_cost REAL NOT NULL DEFAULT 0;
