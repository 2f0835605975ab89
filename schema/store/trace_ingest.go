package store

import (
	"context"
	"fmt"
	"io"
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
// (info's Name, Path and SHA256; IngestedAt, now when empty; the rest from
// r), its calls table rows and its pack. On any error, r's included (a
// defective trace) or ctx's, nothing is written. When the store holds a
// trace with the same SHA256 already (a concurrent ingest of the same
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
	lookup := func() (TraceInfo, bool, error) { return s.TraceBySHA(ctx, info.SHA256) }
	return saveFile(ctx, s, "traces", insert, lookup)
}

// insertTrace writes the traces row, the calls of r and their pack within
// tx and fills info's ID, Calls and Bytes.
func insertTrace(ctx context.Context, tx *sqlx.Tx, r TraceReader, info *TraceInfo) error {
	res, err := tx.ExecContext(ctx, `INSERT INTO traces(name, path, sha256, bytes, calls, proc_count, header,
		root_line, root_file, ingested_at) VALUES (?, ?, ?, 0, 0, ?, ?, ?, ?, ?)`,
		info.Name, info.Path, info.SHA256, info.ProcCount, strings.Join(r.Header().Lines, "\n"),
		info.RootLine, info.RootFile, info.IngestedAt)
	if err != nil {
		return fmt.Errorf("store trace %s: %w", info.Path, err)
	}
	if info.ID, err = res.LastInsertId(); err != nil {
		return err
	}
	calls, err := copyCalls(ctx, tx, r, info)
	if err != nil {
		return err
	}
	info.Calls, info.Bytes = calls, r.TextBytes()
	_, err = tx.ExecContext(ctx, `UPDATE traces SET calls = ?, bytes = ? WHERE id = ?`, info.Calls, info.Bytes, info.ID)
	return err
}

// copyCalls writes every call of r as a row of the calls table and into
// the pack of trace info, and returns how many there were.
func copyCalls(ctx context.Context, tx *sqlx.Tx, r trace.Source, info *TraceInfo) (int, error) {
	w := newCallWriter(tx, info.ID)
	defer w.close()
	pw, err := newPackWriter(ctx, tx, info.ID)
	if err != nil {
		return 0, err
	}
	defer pw.close()
	for {
		c, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return 0, err
		}
		if err := w.add(c); err != nil {
			return 0, fmt.Errorf("store trace %s: call at line %d: %w", info.Path, c.TraceLine, err)
		}
		if err := pw.add(c); err != nil {
			return 0, fmt.Errorf("store trace %s: call at line %d: %w", info.Path, c.TraceLine, err)
		}
		if w.seq%cancelCheckCalls == 0 {
			if err := ctx.Err(); err != nil {
				return 0, err
			}
		}
	}
	if err := w.flush(); err != nil {
		return 0, fmt.Errorf("store trace %s: %w", info.Path, err)
	}
	if err := pw.finish(); err != nil {
		return 0, fmt.Errorf("store trace %s: %w", info.Path, err)
	}
	return int(w.seq), nil
}

// cancelCheckCalls is how many calls are copied or streamed between two
// looks at the context: often enough to stop within milliseconds, rarely
// enough to cost nothing.
const cancelCheckCalls = 4096

// callWriter writes the rows of the calls table of one trace, numbering
// the calls in order.
type callWriter struct {
	id   int64
	seq  int64
	rows *batch
}

func newCallWriter(tx *sqlx.Tx, id int64) *callWriter {
	return &callWriter{id: id, rows: newBatch(tx,
		`calls(trace_id, seq, func, call_time, ret_time, line, file, trace_line, call_params, ret_params)`, 10)}
}

func (w *callWriter) add(c *trace.Call) error {
	err := w.rows.add(w.id, w.seq, c.Func, c.CallTime, c.RetTime, c.Line, c.File, c.TraceLine, c.InText, c.OutText)
	w.seq++
	return err
}

// flush writes the calls of an incomplete batch.
func (w *callWriter) flush() error { return w.rows.flush() }

func (w *callWriter) close() { w.rows.close() }
