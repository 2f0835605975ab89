package store

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/jmoiron/sqlx"

	"github.com/presage-dvm/presage/sim/trace"
)

// The calls table holds one SQL row per call, for SQL users (presage query,
// queries/func_profile.sql). An ingest does not write it: a prediction reads
// the pack, and the rows take eight times the pack's room and most of an
// ingest's time. MaterializeCalls builds them for one trace on request.

// HasCalls tells whether the calls table holds the rows of trace id.
func (s *Store) HasCalls(ctx context.Context, id int64) (bool, error) {
	var n int
	err := s.db.GetContext(ctx, &n, `SELECT count(*) FROM (SELECT 1 FROM calls WHERE trace_id = ? LIMIT 1)`, id)
	return n > 0, err
}

// MaterializeCalls writes the rows of the calls table of the stored trace
// info from its pack, in one transaction, and returns how many it wrote: 0
// when the table holds them already (a trace ingested before packs, or
// materialized before). It reads with one connection of the store while
// writing with another, as BuildPack does.
func (s *Store) MaterializeCalls(ctx context.Context, info TraceInfo) (int, error) {
	if has, err := s.HasCalls(ctx, info.ID); err != nil || has || info.Calls == 0 {
		return 0, err
	}
	src, err := s.OpenTrace(ctx, info)
	if err != nil {
		return 0, err
	}
	defer src.Close()
	var n int
	err = s.update(ctx, func(tx *sqlx.Tx) error {
		n, err = copyCalls(ctx, tx, info, src)
		return err
	})
	return n, err
}

// copyCalls writes the calls of src as the calls table rows of trace info
// within tx and returns how many there were.
func copyCalls(ctx context.Context, tx *sqlx.Tx, info TraceInfo, src trace.Source) (int, error) {
	w := newCallWriter(tx, info.ID)
	defer w.close()
	if err := eachCall(ctx, src, w.add); err != nil {
		return 0, fmt.Errorf("calls of trace %s: %w", info.Name, err)
	}
	if err := w.flush(); err != nil {
		return 0, fmt.Errorf("calls of trace %s: %w", info.Name, err)
	}
	return int(w.seq), nil
}

// eachCall hands every call of src to add, stopping at the first error
// (naming the call's line) or when ctx is cancelled, which it checks
// every cancelCheckCalls calls.
func eachCall(ctx context.Context, src trace.Source, add func(*trace.Call) error) error {
	for n := 1; ; n++ {
		c, err := src.Next()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		if err := add(c); err != nil {
			return fmt.Errorf("call at line %d: %w", c.TraceLine, err)
		}
		if n%cancelCheckCalls == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
	}
}

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
