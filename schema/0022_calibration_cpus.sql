-- Presage store, version 22: a calibration row keeps the CPU its run was
-- pinned to (-1: not pinned, as every row stored before), since a block's
-- constant is the mean of each CPU's median, and the minor page faults
-- its thread took (0: none or unknown), which the medians leave out;
-- a block's summary adds how
-- well its median is known (bound: the widest relative half-width of the
-- 95% interval of an α's median, NULL when too few runs bound it), the
-- widest interquartile spread of an α's runs, and how much slower its
-- slowest CPU runs it than its fastest (0 when not pinned).
ALTER TABLE calibration_rows ADD COLUMN cpu INTEGER NOT NULL DEFAULT -1;
ALTER TABLE calibration_rows ADD COLUMN faults INTEGER NOT NULL DEFAULT 0;
ALTER TABLE calibration_blocks ADD COLUMN bound REAL;
ALTER TABLE calibration_blocks ADD COLUMN spread REAL NOT NULL DEFAULT 0;
ALTER TABLE calibration_blocks ADD COLUMN cpu_spread REAL NOT NULL DEFAULT 0;
