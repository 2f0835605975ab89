-- Presage store, version 23: a trace is checked by meaning at its first
-- prediction, not at ingest (unless ingested with --check): a trace whose
-- prediction found a defect of the trace (a call no configuration can
-- simulate) keeps it here, as one line (file:line: function: what was
-- expected), and every later prediction of it is refused at once with
-- it. NULL: not refused.
ALTER TABLE traces ADD COLUMN refused TEXT;
