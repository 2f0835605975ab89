package store

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/presage-dvm/presage/sim/trace"
)

// TraceReader is a trace being ingested, read once: its header, its calls
// in order, and the size of its text once every call is read.
// *ptr.Reader is one.
type TraceReader interface {
	trace.Source
	Header() *trace.Header
	TextBytes() int64
}

// SaveTrace stores the trace that r reads, in one transaction: its row
// (info's Name, Path and XXH3; IngestedAt, now when empty; the rest from
// r) and its pack. The calls table, one SQL row per call, is not written:
// it is eight times the pack's size and a prediction never reads it, so it
// is built only on request (MaterializeCalls). On any error, r's included (a
// defective trace) or ctx's, nothing is written. When the store holds a
// trace with the same XXH3 already (a concurrent ingest of the same
// bytes won), that trace comes back with Existing set.
func (s *Store) SaveTrace(ctx context.Context, info TraceInfo, r TraceReader) (TraceInfo, error) {
	return s.SaveTraceSummed(ctx, info, r, nil)
}

// SaveTraceSummed is SaveTrace for a file hashed in the pass that parses
// it: when digest is not nil, info.XXH3 is left out and digest gives it
// once every call of r is read, before the transaction commits (the trace
// is stored with it, or a trace stored with it already comes back). A
// file that could be stored already is hashed first instead (ingest),
// so that it is not parsed.
func (s *Store) SaveTraceSummed(ctx context.Context, info TraceInfo, r TraceReader, digest func() (string, error)) (TraceInfo, error) {
	h := r.Header()
	info.ProcCount, info.RootLine, info.RootFile = h.ProcCount, h.RootLine, h.RootFile
	if info.IngestedAt == "" {
		info.IngestedAt = time.Now().UTC().Format(time.RFC3339)
	}
	insert := func(tx *sqlx.Tx) (TraceInfo, error) {
		err := insertTrace(ctx, tx, r, &info, digest)
		return info, err
	}
	lookup := func() (TraceInfo, bool, error) { return s.TraceByXXH3(ctx, info.XXH3) }
	return saveFile(ctx, s, "traces", insert, lookup)
}

// pendingXXH3 stands for the digest of a trace row whose file is hashed
// as it is parsed, until the end of the pass, within the transaction that
// writes the row: no other connection ever sees it, and writers take
// turns, so no two rows hold it.
const pendingXXH3 = "pending"

// insertTrace writes the traces row and the pack of the calls of r within
// tx and fills info's ID, Calls and Bytes, and its XXH3 from digest when
// digest is not nil.
func insertTrace(ctx context.Context, tx *sqlx.Tx, r TraceReader, info *TraceInfo, digest func() (string, error)) error {
	fields, err := headerFields(r.Header())
	if err != nil {
		return fmt.Errorf("store trace %s: %w", info.Path, err)
	}
	if digest != nil {
		info.XXH3 = pendingXXH3
	}
	res, err := tx.ExecContext(ctx, `INSERT INTO traces(name, path, xxh3, bytes, calls, proc_count, header,
		header_fields, root_line, root_file, ingested_at) VALUES (?, ?, ?, 0, 0, ?, ?, ?, ?, ?, ?)`,
		info.Name, info.Path, info.XXH3, info.ProcCount, strings.Join(r.Header().Lines, "\n"),
		fields, info.RootLine, info.RootFile, info.IngestedAt)
	if err != nil {
		return fmt.Errorf("store trace %s: %w", info.Path, err)
	}
	if info.ID, err = res.LastInsertId(); err != nil {
		return err
	}
	calls, err := packCalls(ctx, tx, info.ID, r)
	if err != nil {
		return err
	}
	info.Calls, info.Bytes = calls, r.TextBytes()
	if digest != nil {
		if info.XXH3, err = digest(); err != nil {
			return fmt.Errorf("store trace %s: %w", info.Path, err)
		}
	}
	_, err = tx.ExecContext(ctx, `UPDATE traces SET calls = ?, bytes = ?, xxh3 = ? WHERE id = ?`, info.Calls, info.Bytes, info.XXH3, info.ID)
	return err
}

// HasTraces reports whether the store holds any trace: a file ingested
// into a store without one is new whatever its bytes.
func (s *Store) HasTraces(ctx context.Context) (bool, error) {
	var n int
	err := s.db.GetContext(ctx, &n, `SELECT count(*) FROM (SELECT 1 FROM traces LIMIT 1)`)
	return n > 0, err
}

// cancelCheckCalls is how many calls are copied or streamed between two
// looks at the context: often enough to stop within milliseconds, rarely
// enough to cost nothing.
const cancelCheckCalls = 4096
