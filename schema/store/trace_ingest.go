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
	h := r.Header()
	info.ProcCount, info.RootLine, info.RootFile = h.ProcCount, h.RootLine, h.RootFile
	if info.IngestedAt == "" {
		info.IngestedAt = time.Now().UTC().Format(time.RFC3339)
	}
	insert := func(tx *sqlx.Tx) (TraceInfo, error) {
		err := insertTrace(ctx, tx, r, &info)
		return info, err
	}
	lookup := func() (TraceInfo, bool, error) { return s.TraceByXXH3(ctx, info.XXH3) }
	return saveFile(ctx, s, "traces", insert, lookup)
}

// insertTrace writes the traces row and the pack of the calls of r within
// tx and fills info's ID, Calls and Bytes.
func insertTrace(ctx context.Context, tx *sqlx.Tx, r TraceReader, info *TraceInfo) error {
	fields, err := headerFields(r.Header())
	if err != nil {
		return fmt.Errorf("store trace %s: %w", info.Path, err)
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
	_, err = tx.ExecContext(ctx, `UPDATE traces SET calls = ?, bytes = ? WHERE id = ?`, info.Calls, info.Bytes, info.ID)
	return err
}

// cancelCheckCalls is how many calls are copied or streamed between two
// looks at the context: often enough to stop within milliseconds, rarely
// enough to cost nothing.
const cancelCheckCalls = 4096
