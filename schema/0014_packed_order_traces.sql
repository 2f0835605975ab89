-- Presage store, version 14: order traces stored packed, prepared once.
--
-- An order trace ingested from this version on is stored in
-- sim/ordertrace's packed form (docs/orders.md, "The stored form"): per
-- chunk, data holds the orders (binary, ids implicit, names by index) and
-- segments their segments, apart, since no simulation reads them; the
-- trace's row holds the names the chunks refer to and the counts of every
-- order's children and requests, which a simulation needs before it
-- starts and which ingest makes in its one pass. A simulation therefore
-- decodes the trace once, and a sweep shares the counts among its workers.
--
-- Traces stored before keep their chunks of JSON lines (packing 0) and
-- are read as before, counted by one more pass.
ALTER TABLE order_traces ADD COLUMN packing INTEGER NOT NULL DEFAULT 0; -- 0: JSON lines, 1: packed
ALTER TABLE order_traces ADD COLUMN names   TEXT;   -- packed: JSON array of the procedure and block names
ALTER TABLE order_traces ADD COLUMN counts  BLOB;   -- packed: ordertrace.Counts, zstd-compressed

ALTER TABLE order_trace_chunks ADD COLUMN segments BLOB; -- packed: the orders' segments, zstd-compressed
