-- Presage store, version 11: a trace is known by the XXH3-128 of its
-- file's bytes instead of their SHA-256. SHA-256 ran at 2 GB/s, a quarter
-- of the CPU time of predicting a 217 MB trace file from scratch; XXH3
-- runs at tens of GB/s. It tells files apart as well for this purpose (a
-- store de-duplicates the files its user gives it; it does not defend
-- against forged collisions).
--
-- Traces stored before keep their sha256 and get an xxh3 the next time
-- their file is ingested (the ingest computes the SHA-256 only while the
-- store holds such traces); new ones have an xxh3 only. The table is
-- rebuilt, as SQLite cannot drop a NOT NULL; the migration runs with
-- foreign keys off, checked before it commits.
CREATE TABLE traces_new (
    id          INTEGER PRIMARY KEY,
    name        TEXT    NOT NULL,          -- file base name without .ptr/.gz
    path        TEXT    NOT NULL,          -- as given on the command line
    xxh3        TEXT    UNIQUE,            -- XXH3-128 of the file's bytes as stored on disk, hex
    sha256      TEXT    UNIQUE,            -- SHA-256 of them, for traces stored before version 11
    bytes       INTEGER NOT NULL,          -- uncompressed size
    calls       INTEGER NOT NULL,
    proc_count  INTEGER NOT NULL,          -- ProcCount of the header
    header      TEXT    NOT NULL,          -- the preamble, verbatim
    root_line   INTEGER NOT NULL,          -- LINE= of the first function line (root interval)
    root_file   TEXT    NOT NULL,
    ingested_at TEXT    NOT NULL,
    CHECK (xxh3 IS NOT NULL OR sha256 IS NOT NULL)
);
INSERT INTO traces_new(id, name, path, sha256, bytes, calls, proc_count, header, root_line, root_file, ingested_at)
    SELECT id, name, path, sha256, bytes, calls, proc_count, header, root_line, root_file, ingested_at FROM traces;
DROP TABLE traces;
ALTER TABLE traces_new RENAME TO traces;
CREATE INDEX traces_name ON traces(name);
