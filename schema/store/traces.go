package store

import (
	"context"
	"fmt"

	"github.com/jmoiron/sqlx"
)

// The traces, calls, trace_shapes and trace_packs tables hold the ingested
// Lib-DVM traces: every call is both a row of the calls table, for SQL
// users, and part of the trace's pack (trace_pack.go), from which
// OpenTrace streams the trace back without parsing it again.

// TraceInfo describes a stored trace (a row of the traces table).
type TraceInfo struct {
	ID         int64  `db:"id"`
	Name       string `db:"name"`   // file base name without .gz and .ptr
	Path       string `db:"path"`   // as given to the ingest
	XXH3       string `db:"xxh3"`   // XXH3-128 of the file's bytes, hex; "" for a trace not ingested since version 11
	SHA256     string `db:"sha256"` // SHA-256 of them, for traces stored before version 11; else ""
	Bytes      int64  `db:"bytes"`  // uncompressed size
	Calls      int    `db:"calls"`
	ProcCount  int    `db:"proc_count"`
	RootLine   int    `db:"root_line"`
	RootFile   string `db:"root_file"`
	IngestedAt string `db:"ingested_at"` // RFC 3339, UTC
	// Refused is the defect the trace's first prediction found (one
	// line: file:line: function: what was expected), "" when none was
	// found (MarkTraceRefused).
	Refused string `db:"refused"`
	// Existing is set by the ingest when the file's content was already
	// stored and nothing was written.
	Existing bool `db:"-"`
}

const traceColumns = `id, name, path, coalesce(xxh3, '') AS xxh3, coalesce(sha256, '') AS sha256,
	bytes, calls, proc_count, root_line, root_file, ingested_at, coalesce(refused, '') AS refused`

// Traces returns the stored traces in ingest order.
func (s *Store) Traces() ([]TraceInfo, error) {
	var infos []TraceInfo
	if err := s.db.Select(&infos, `SELECT `+traceColumns+` FROM traces ORDER BY id`); err != nil {
		return nil, fmt.Errorf("list traces: %w", err)
	}
	return infos, nil
}

// Trace returns the stored trace called name (the latest ingest with that
// name wins) or, when no trace has that name, the one whose id name is.
// The error of an unknown trace wraps ErrNotFound.
func (s *Store) Trace(name string) (TraceInfo, error) {
	var info TraceInfo
	found, err := s.getByNameOrID(&info, "traces", traceColumns, name)
	if err != nil {
		return TraceInfo{}, fmt.Errorf("find trace %q: %w", name, err)
	}
	if !found {
		return TraceInfo{}, s.missing("traces", "trace", "trace", name)
	}
	return info, nil
}

// TraceByXXH3 returns the stored trace whose file had the given XXH3-128
// (in hex), with Existing set, and whether there is one.
func (s *Store) TraceByXXH3(ctx context.Context, sum string) (TraceInfo, bool, error) {
	info, found, err := getOptional[TraceInfo](ctx, s.db, `SELECT `+traceColumns+` FROM traces WHERE xxh3 = ?`, sum)
	info.Existing = found
	return info, found, err
}

// TraceBySHA returns the stored trace whose file had the given SHA-256 (in
// hex), with Existing set, and whether there is one: traces stored before
// version 11 are known by it.
func (s *Store) TraceBySHA(ctx context.Context, sum string) (TraceInfo, bool, error) {
	info, found, err := getOptional[TraceInfo](ctx, s.db, `SELECT `+traceColumns+` FROM traces WHERE sha256 = ?`, sum)
	info.Existing = found
	return info, found, err
}

// TraceOfFile returns the stored trace of a file whose XXH3-128 is xxh3,
// with Existing set, and whether there is one. A trace stored before
// schema 11 is known by its file's SHA-256 only: while the store holds
// such traces, sha256 is asked for the file's and looked up too, and a
// trace found by it gets its XXH3, so that the next ingest of the file
// finds it at once. No migration can give those traces their XXH3 instead,
// as migration 24 packs the old order traces: it is a digest of the
// file's bytes, which the store does not keep (it keeps the calls and the
// packed trace, from which a file, gzip-compressed or not, cannot be made
// again byte for byte); so this path stays while such traces may be in a
// store.
func (s *Store) TraceOfFile(ctx context.Context, xxh3 string, sha256 func() (string, error)) (TraceInfo, bool, error) {
	info, found, err := s.TraceByXXH3(ctx, xxh3)
	if err != nil || found {
		return info, found, err
	}
	var legacy int
	if err := s.db.GetContext(ctx, &legacy, `SELECT count(*) FROM (SELECT 1 FROM traces WHERE xxh3 IS NULL LIMIT 1)`); err != nil || legacy == 0 {
		return info, false, err
	}
	sum, err := sha256()
	if err != nil {
		return info, false, err
	}
	if info, found, err = s.TraceBySHA(ctx, sum); err != nil || !found {
		return info, found, err
	}
	err = s.update(ctx, func(tx *sqlx.Tx) error {
		_, err := tx.ExecContext(ctx, `UPDATE traces SET xxh3 = ? WHERE id = ? AND xxh3 IS NULL`, xxh3, info.ID)
		return err
	})
	if isDuplicate(err, "traces") {
		// A concurrent ingest stored the same bytes as a new trace
		// meanwhile: that one is found by its XXH3.
		return s.TraceByXXH3(ctx, xxh3)
	}
	info.XXH3 = xxh3
	return info, err == nil, err
}

// MarkTraceRefused remembers that a prediction of trace id found defect
// in it (a call no configuration can simulate), so that every later
// prediction is refused at once. A trace marked already keeps its first
// defect.
func (s *Store) MarkTraceRefused(ctx context.Context, id int64, defect string) error {
	return s.update(ctx, func(tx *sqlx.Tx) error {
		_, err := tx.ExecContext(ctx, `UPDATE traces SET refused = ? WHERE id = ? AND refused IS NULL`, defect, id)
		return err
	})
}

// notFound is an error with its own message that counts as ErrNotFound.
type notFound string

func (e notFound) Error() string        { return string(e) }
func (e notFound) Is(target error) bool { return target == ErrNotFound }
