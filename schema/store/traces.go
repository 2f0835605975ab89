package store

import (
	"context"
	"fmt"
)

// The traces, calls, trace_shapes and trace_packs tables hold the ingested
// Lib-DVM traces: every call is both a row of the calls table, for SQL
// users, and part of the trace's pack (trace_pack.go), from which
// OpenTrace streams the trace back without parsing it again.

// TraceInfo describes a stored trace (a row of the traces table).
type TraceInfo struct {
	ID         int64  `db:"id"`
	Name       string `db:"name"` // file base name without .gz and .ptr
	Path       string `db:"path"` // as given to the ingest
	SHA256     string `db:"sha256"`
	Bytes      int64  `db:"bytes"` // uncompressed size
	Calls      int    `db:"calls"`
	ProcCount  int    `db:"proc_count"`
	RootLine   int    `db:"root_line"`
	RootFile   string `db:"root_file"`
	IngestedAt string `db:"ingested_at"` // RFC 3339, UTC
	// Existing is set by the ingest when the file's content was already
	// stored and nothing was written.
	Existing bool `db:"-"`
}

const traceColumns = `id, name, path, sha256, bytes, calls, proc_count, root_line, root_file, ingested_at`

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

// TraceBySHA returns the stored trace whose file had the given sha256 (in
// hex), with Existing set, and whether there is one.
func (s *Store) TraceBySHA(ctx context.Context, sum string) (TraceInfo, bool, error) {
	info, found, err := getOptional[TraceInfo](ctx, s.db, `SELECT `+traceColumns+` FROM traces WHERE sha256 = ?`, sum)
	info.Existing = found
	return info, found, err
}

// notFound is an error with its own message that counts as ErrNotFound.
type notFound string

func (e notFound) Error() string        { return string(e) }
func (e notFound) Is(target error) bool { return target == ErrNotFound }
