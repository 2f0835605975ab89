-- Presage store, version 20: an order trace keeps what its header says of
-- the machine beyond its orders (sim/ordertrace.Header): the runtime's own
-- costs per order and per wait that suspends, in the trace's unit, and the
-- slowdown of orders running at once, as calibrate mode timed them. The
-- simulator applies them. 0 and '' for traces recorded without them and
-- for traces stored before.
ALTER TABLE order_traces ADD COLUMN order_cost REAL NOT NULL DEFAULT 0;
ALTER TABLE order_traces ADD COLUMN wait_cost REAL NOT NULL DEFAULT 0;
-- slowdown: the header's slowdown by orders running at once, as a JSON
-- array (s(1), s(2), ...), '' when the trace has none.
ALTER TABLE order_traces ADD COLUMN slowdown TEXT NOT NULL DEFAULT '';

-- A calibration row keeps how many copies of its test ran at once (1:
-- alone; more: the blocks' slowdown when they share the machine) and its
-- wall time beside the thread's CPU time (0: unknown), which tells a
-- loaded machine.
ALTER TABLE calibration_rows ADD COLUMN copies INTEGER NOT NULL DEFAULT 1;
ALTER TABLE calibration_rows ADD COLUMN wall REAL NOT NULL DEFAULT 0;
-- A block's summary adds the share of its runs alone the machine was
-- loaded during, and its slowdown by copies ("2:1.19 4:1.5"; '' when no
-- copies were timed). Its constants come from its runs alone.
ALTER TABLE calibration_blocks ADD COLUMN loaded REAL NOT NULL DEFAULT 0;
ALTER TABLE calibration_blocks ADD COLUMN slowdown TEXT NOT NULL DEFAULT '';
