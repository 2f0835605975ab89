-- Presage store, version 5: a packed copy of every trace's calls, written
-- by the ingest in the same transaction as the calls table, from which a
-- prediction streams the trace without re-parsing its text
-- (schema/store/trace_pack.go). The calls table stays what SQL users query.

-- The distinct call shapes of a trace: everything of a call but its times
-- and trace line, numbered 0, 1, ... in order of first appearance.
CREATE TABLE trace_shapes (
    trace_id    INTEGER NOT NULL REFERENCES traces(id) ON DELETE CASCADE,
    shape       INTEGER NOT NULL,          -- 0-based, in order of first appearance
    func        TEXT    NOT NULL,
    line        INTEGER NOT NULL,
    file        TEXT    NOT NULL,
    call_params TEXT    NOT NULL,
    ret_params  TEXT    NOT NULL,
    pattern     TEXT    NOT NULL,          -- 'AMView', 'DisArray' or ''
    PRIMARY KEY (trace_id, shape)
);

-- The calls of a trace in chunks of consecutive calls, each call encoded
-- as varints: shape, call time, return time, trace line (a delta from the
-- previous call's in the chunk). A time is zigzag(ticks)<<1 when
-- ticks/1e8 reproduces it bit for bit, else 1 followed by its 8 bytes
-- (IEEE 754, little-endian). Every packed trace has at least chunk 0.
-- Rowid tables: chunks are large rows, which WITHOUT ROWID tables handle
-- badly.
CREATE TABLE trace_packs (
    trace_id    INTEGER NOT NULL REFERENCES traces(id) ON DELETE CASCADE,
    chunk       INTEGER NOT NULL,          -- 0-based
    calls       INTEGER NOT NULL,          -- calls encoded in data
    data        BLOB    NOT NULL,
    PRIMARY KEY (trace_id, chunk)
);
