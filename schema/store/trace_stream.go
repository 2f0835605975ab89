package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/jmoiron/sqlx"

	"github.com/presage-dvm/presage/sim/trace"
)

// TraceStream is a stored trace opened for one pass over its calls, a
// trace.Source: from the trace's pack when it has one, else (a trace
// ingested before packs existed) from the calls table. It holds one chunk
// of the pack at a time, so a prediction that streams it into the
// simulator needs memory for the compiled program only, not the trace.
//
// The *trace.Call that Next returns, with everything it points to, is valid
// until the next call of Next, which may overwrite it: a caller that keeps
// calls copies them (LoadTrace does). sim.Predict and sim.Compile keep
// none: their compiler copies the times and keeps only the strings and its
// own parsed form of the parameters. A call must not be modified: a pack's
// calls of the same shape share one (their Shape), times apart.
type TraceStream struct {
	TraceInfo
	Header *trace.Header
	// Packed tells whether the calls come from the pack.
	Packed bool

	ctx  context.Context
	pack *packSource
	rows *callSource // when not Packed
	seen int
	err  error // sticky
}

// OpenTrace opens the stored trace info (as Trace or Traces return it) for
// streaming. ctx bounds the reading of the calls too.
func (s *Store) OpenTrace(ctx context.Context, info TraceInfo) (*TraceStream, error) {
	h, err := s.traceHeader(ctx, info)
	if err != nil {
		return nil, err
	}
	ts := &TraceStream{TraceInfo: info, Header: h, ctx: ctx}
	packed, err := hasPack(ctx, s.db, info.ID)
	if err != nil {
		return nil, fmt.Errorf("load trace %s: %w", info.Name, err)
	}
	if !packed {
		if ts.rows, err = s.callRows(info.ID); err != nil {
			return nil, err
		}
		return ts, nil
	}
	ts.Packed = true
	if ts.pack, err = s.openPack(ctx, info); err != nil {
		return nil, err
	}
	return ts, nil
}

// Next returns the next call (see TraceStream for how long it stays
// valid), or io.EOF after the last one.
func (ts *TraceStream) Next() (*trace.Call, error) {
	if ts.err != nil {
		return nil, ts.err
	}
	var c *trace.Call
	var err error
	if ts.pack != nil {
		c, err = ts.pack.next()
	} else {
		if ts.seen%cancelCheckCalls == 0 {
			err = ts.ctx.Err()
		}
		if err == nil {
			c, err = ts.rows.Next()
		}
	}
	switch {
	case err == io.EOF && ts.seen != ts.Calls:
		err = fmt.Errorf("load trace %s: %d calls stored, the trace row says %d", ts.Name, ts.seen, ts.Calls)
	case err == nil:
		ts.seen++
		return c, nil
	}
	ts.err = err
	return nil, err
}

// Close ends the pass and releases the store's connection that a stream
// from the calls table holds until io.EOF; Next then fails.
func (ts *TraceStream) Close() error {
	if ts.rows != nil {
		ts.rows.Close()
	}
	if ts.err == nil || ts.err == io.EOF {
		ts.err = errClosed
	}
	ts.pack = nil
	return nil
}

// traceHeader reads back the header of a stored trace: its text and the
// fields parsed from it at ingest.
func (s *Store) traceHeader(ctx context.Context, info TraceInfo) (*trace.Header, error) {
	var row struct {
		Text   string         `db:"header"`
		Fields sql.NullString `db:"header_fields"`
	}
	if err := s.db.GetContext(ctx, &row, `SELECT header, header_fields FROM traces WHERE id = ?`, info.ID); err != nil {
		return nil, fmt.Errorf("load trace %s: %w", info.Name, err)
	}
	if !row.Fields.Valid {
		return nil, fmt.Errorf("trace %s was stored by an older presage without its parsed header: any presage command that writes to the store (predict, sweep, ingest) parses it once", info.Name)
	}
	h := &trace.Header{}
	if err := json.Unmarshal([]byte(row.Fields.String), h); err != nil {
		return nil, fmt.Errorf("load trace %s: header: %w", info.Name, err)
	}
	h.Lines = strings.Split(row.Text, "\n")
	return h, nil
}

// headerFields is the stored form of a header's parsed fields (the
// traces table's header_fields): JSON of the header without its lines,
// which the header column holds.
func headerFields(h *trace.Header) (string, error) {
	c := *h
	c.Lines = nil
	b, err := json.Marshal(&c)
	return string(b), err
}

// UnparsedTraceHeaders returns the traces stored before schema 12 without
// their parsed header, with the header's text.
func (s *Store) UnparsedTraceHeaders(ctx context.Context) (infos []TraceInfo, texts []string, err error) {
	var rows []struct {
		ID   int64  `db:"id"`
		Name string `db:"name"`
		Text string `db:"header"`
	}
	if err := s.db.SelectContext(ctx, &rows, `SELECT id, name, header FROM traces WHERE header_fields IS NULL ORDER BY id`); err != nil {
		return nil, nil, fmt.Errorf("list unparsed trace headers: %w", err)
	}
	for _, r := range rows {
		infos, texts = append(infos, TraceInfo{ID: r.ID, Name: r.Name}), append(texts, r.Text)
	}
	return infos, texts, nil
}

// SetTraceHeaders stores the parsed headers of traces stored without one
// (keyed by id), in one transaction.
func (s *Store) SetTraceHeaders(ctx context.Context, headers map[int64]*trace.Header) error {
	return s.update(ctx, func(tx *sqlx.Tx) error {
		for id, h := range headers {
			fields, err := headerFields(h)
			if err != nil {
				return fmt.Errorf("trace %d: %w", id, err)
			}
			if _, err := tx.ExecContext(ctx, `UPDATE traces SET header_fields = ? WHERE id = ? AND header_fields IS NULL`, fields, id); err != nil {
				return fmt.Errorf("store the parsed header of trace %d: %w", id, err)
			}
		}
		return nil
	})
}

func hasPack(ctx context.Context, db sqlx.QueryerContext, id int64) (bool, error) {
	var n int
	err := sqlx.GetContext(ctx, db, &n, `SELECT count(*) FROM trace_packs WHERE trace_id = ? AND chunk = 0`, id)
	return n > 0, err
}

// packSource decodes the chunks of a pack one at a time into one reused
// call.
type packSource struct {
	ctx    context.Context
	db     *sqlx.DB
	info   TraceInfo
	shapes []trace.Call // a call of each shape, with the times of its last call
	buf    []byte       // the current chunk
	dec    chunkDecoder
	chunk  int // the current chunk's number
	left   int // calls of the current chunk not decoded yet
	done   bool
}

// openPack reads the shapes of a trace, parsing the parameters of each
// once.
func (s *Store) openPack(ctx context.Context, info TraceInfo) (*packSource, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT func, line, file, call_params, ret_params, pattern
		FROM trace_shapes WHERE trace_id = ? ORDER BY shape`, info.ID)
	if err != nil {
		return nil, fmt.Errorf("load trace %s: %w", info.Name, err)
	}
	defer rows.Close()
	p := &packSource{ctx: ctx, db: s.db, info: info, chunk: -1}
	names := make(map[string]string)
	var fn, file sql.RawBytes
	for rows.Next() {
		var c trace.Call
		if err := rows.Scan(&fn, &c.Line, &file, &c.InText, &c.OutText, &c.Pattern); err != nil {
			return nil, fmt.Errorf("load trace %s: shape %d: %w", info.Name, len(p.shapes), err)
		}
		c.Func, c.File = intern(names, fn), intern(names, file)
		c.Shape = len(p.shapes) + 1 // the compiler's index of the shape
		// The parameters as the reader gives them; the pattern is the
		// stored one (the reader's, of the call side).
		c.In, _ = trace.ParseParams(c.InText)
		c.Out, _ = trace.ParseParams(c.OutText)
		p.shapes = append(p.shapes, c)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("load trace %s: %w", info.Name, err)
	}
	return p, nil
}

// intern returns the string of a scanned column from names, adding it if
// new: the calls of a trace share a few function and file names, and a
// known one is not copied.
func intern(names map[string]string, b []byte) string {
	if v, ok := names[string(b)]; ok {
		return v
	}
	v := string(b)
	names[v] = v
	return v
}

func (p *packSource) next() (*trace.Call, error) {
	for p.left == 0 {
		if p.done {
			return nil, io.EOF
		}
		if err := p.load(p.chunk + 1); err != nil {
			return nil, err
		}
	}
	pc, err := p.dec.next()
	if err != nil {
		return nil, p.corrupt(err)
	}
	if pc.shape >= uint64(len(p.shapes)) {
		return nil, p.corrupt(fmt.Errorf("shape %d: the trace has %d shapes", pc.shape, len(p.shapes)))
	}
	p.left--
	if p.left == 0 && !p.dec.done() {
		return nil, p.corrupt(fmt.Errorf("%d bytes after the last call", len(p.buf)-p.dec.off))
	}
	// The shape's own call is returned with this call's times, not a
	// copy: it is valid until the next call of Next, as TraceStream says.
	c := &p.shapes[pc.shape]
	c.CallTime, c.RetTime, c.TraceLine = pc.callTime, pc.retTime, pc.traceLine
	return c, nil
}

// load reads chunk k, or notes the end of the pack when there is none.
func (p *packSource) load(k int) error {
	if err := p.ctx.Err(); err != nil {
		return err
	}
	rows, err := p.db.QueryContext(p.ctx, `SELECT calls, data FROM trace_packs WHERE trace_id = ? AND chunk = ?`, p.info.ID, k)
	if err != nil {
		return fmt.Errorf("load trace %s: chunk %d: %w", p.info.Name, k, err)
	}
	defer rows.Close()
	if !rows.Next() {
		p.done = true
		return rows.Err()
	}
	var raw sql.RawBytes
	if err := rows.Scan(&p.left, &raw); err != nil {
		return fmt.Errorf("load trace %s: chunk %d: %w", p.info.Name, k, err)
	}
	p.chunk = k
	// raw is valid until the rows move on: it is decompressed into the
	// buffer before.
	if p.buf, err = blobDecoder().DecodeAll(raw, p.buf[:0]); err != nil {
		return p.corrupt(err)
	}
	p.dec.reset(p.buf)
	if p.left < 0 || (p.left == 0 && len(p.buf) > 0) {
		return p.corrupt(fmt.Errorf("chunk says %d calls", p.left))
	}
	return rows.Close()
}

// corrupt describes a defect of the stored pack.
func (p *packSource) corrupt(err error) error {
	return fmt.Errorf("trace %s (%s): pack chunk %d: %w", p.info.Name, p.info.Path, p.chunk, err)
}
