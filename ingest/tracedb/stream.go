package tracedb

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"

	"github.com/jmoiron/sqlx"

	"github.com/presage-dvm/presage/ingest/ptr"
)

// Stream is a stored trace opened for one pass over its calls, a
// ptr.Source: from the trace's pack when it has one, else (a trace
// ingested before packs existed) from the calls table. It holds one chunk
// of the pack at a time, so a prediction that streams it into the
// simulator needs memory for the compiled program only, not the trace.
//
// The *ptr.Call that Next returns, with everything it points to, is valid
// until the next call of Next, which may overwrite it: a caller that keeps
// calls copies them (Load does). sim.Predict and sim.Compile keep none:
// their compiler copies the times and keeps only the strings and its own
// parsed form of the parameters. The Params of calls of the same shape
// are shared and must not be modified.
type Stream struct {
	Info
	Header *ptr.Header
	// Packed tells whether the calls come from the pack.
	Packed bool

	ctx  context.Context
	pack *packSource
	rows *CallSource // when not Packed
	seen int
	err  error // sticky
}

// Open opens the stored trace name (a name or an id, see Find) for
// streaming. ctx bounds the reading of the calls too.
func Open(ctx context.Context, db *sqlx.DB, name string) (*Stream, error) {
	info, err := Find(db, name)
	if err != nil {
		return nil, err
	}
	return OpenTrace(ctx, db, info)
}

// OpenTrace opens the stored trace info (as Find or List return it) for
// streaming.
func OpenTrace(ctx context.Context, db *sqlx.DB, info Info) (*Stream, error) {
	h, err := loadHeader(ctx, db, info)
	if err != nil {
		return nil, err
	}
	s := &Stream{Info: info, Header: h, ctx: ctx}
	packed, err := hasPack(ctx, db, info.ID)
	if err != nil {
		return nil, fmt.Errorf("load trace %s: %w", info.Name, err)
	}
	if !packed {
		if s.rows, err = Calls(db, info.ID); err != nil {
			return nil, err
		}
		return s, nil
	}
	s.Packed = true
	if s.pack, err = openPack(ctx, db, info); err != nil {
		return nil, err
	}
	return s, nil
}

// Next returns the next call (see Stream for how long it stays valid), or
// io.EOF after the last one.
func (s *Stream) Next() (*ptr.Call, error) {
	if s.err != nil {
		return nil, s.err
	}
	var c *ptr.Call
	var err error
	if s.pack != nil {
		c, err = s.pack.next()
	} else {
		if s.seen%4096 == 0 {
			err = s.ctx.Err()
		}
		if err == nil {
			c, err = s.rows.Next()
		}
	}
	switch {
	case err == io.EOF && s.seen != s.Calls:
		err = fmt.Errorf("load trace %s: %d calls stored, the trace row says %d", s.Name, s.seen, s.Calls)
	case err == nil:
		s.seen++
		return c, nil
	}
	s.err = err
	return nil, err
}

// Close ends the pass and releases the store's connection that a stream
// from the calls table holds until io.EOF; Next then fails.
func (s *Stream) Close() error {
	if s.rows != nil {
		s.rows.Close()
	}
	if s.err == nil || s.err == io.EOF {
		s.err = errClosed
	}
	s.pack = nil
	return nil
}

func loadHeader(ctx context.Context, db *sqlx.DB, info Info) (*ptr.Header, error) {
	var text string
	if err := db.GetContext(ctx, &text, `SELECT header FROM traces WHERE id = ?`, info.ID); err != nil {
		return nil, fmt.Errorf("load trace %s: %w", info.Name, err)
	}
	return ptr.ParseHeader(text, info.Name)
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
	info   Info
	shapes []ptr.Call // a call of each shape, without times and trace line
	call   ptr.Call
	buf    []byte // the current chunk
	dec    chunkDecoder
	chunk  int // the current chunk's number
	left   int // calls of the current chunk not decoded yet
	done   bool
}

// openPack reads the shapes of a trace, parsing the parameters of each
// once.
func openPack(ctx context.Context, db *sqlx.DB, info Info) (*packSource, error) {
	rows, err := db.QueryContext(ctx, `SELECT func, line, file, call_params, ret_params, pattern
		FROM trace_shapes WHERE trace_id = ? ORDER BY shape`, info.ID)
	if err != nil {
		return nil, fmt.Errorf("load trace %s: %w", info.Name, err)
	}
	defer rows.Close()
	s := &packSource{ctx: ctx, db: db, info: info, chunk: -1}
	names := make(map[string]string)
	for rows.Next() {
		var c ptr.Call
		if err := rows.Scan(&c.Func, &c.Line, &c.File, &c.InText, &c.OutText, &c.Pattern); err != nil {
			return nil, fmt.Errorf("load trace %s: shape %d: %w", info.Name, len(s.shapes), err)
		}
		c.Func, c.File = intern(names, c.Func), intern(names, c.File)
		// The parameters as the reader gives them; the pattern is the
		// stored one (the reader's, of the call side).
		c.In, _ = ptr.ParseParams(c.InText)
		c.Out, _ = ptr.ParseParams(c.OutText)
		s.shapes = append(s.shapes, c)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("load trace %s: %w", info.Name, err)
	}
	return s, nil
}

func intern(names map[string]string, s string) string {
	if v, ok := names[s]; ok {
		return v
	}
	names[s] = s
	return s
}

func (s *packSource) next() (*ptr.Call, error) {
	for s.left == 0 {
		if s.done {
			return nil, io.EOF
		}
		if err := s.load(s.chunk + 1); err != nil {
			return nil, err
		}
	}
	pc, err := s.dec.next()
	if err != nil {
		return nil, s.corrupt(err)
	}
	if pc.shape >= uint64(len(s.shapes)) {
		return nil, s.corrupt(fmt.Errorf("shape %d: the trace has %d shapes", pc.shape, len(s.shapes)))
	}
	s.left--
	if s.left == 0 && !s.dec.done() {
		return nil, s.corrupt(fmt.Errorf("%d bytes after the last call", len(s.buf)-s.dec.off))
	}
	s.call = s.shapes[pc.shape]
	s.call.CallTime, s.call.RetTime, s.call.TraceLine = pc.callTime, pc.retTime, pc.traceLine
	return &s.call, nil
}

// load reads chunk k, or notes the end of the pack when there is none.
func (s *packSource) load(k int) error {
	if err := s.ctx.Err(); err != nil {
		return err
	}
	rows, err := s.db.QueryContext(s.ctx, `SELECT calls, data FROM trace_packs WHERE trace_id = ? AND chunk = ?`, s.info.ID, k)
	if err != nil {
		return fmt.Errorf("load trace %s: chunk %d: %w", s.info.Name, k, err)
	}
	defer rows.Close()
	if !rows.Next() {
		s.done = true
		return rows.Err()
	}
	var raw sql.RawBytes
	if err := rows.Scan(&s.left, &raw); err != nil {
		return fmt.Errorf("load trace %s: chunk %d: %w", s.info.Name, k, err)
	}
	// raw is valid until the rows move on: keep a copy in the buffer.
	s.buf = append(s.buf[:0], raw...)
	s.dec.reset(s.buf)
	s.chunk = k
	if s.left < 0 || (s.left == 0 && len(s.buf) > 0) {
		return s.corrupt(fmt.Errorf("chunk says %d calls", s.left))
	}
	return rows.Close()
}

// corrupt describes a defect of the stored pack.
func (s *packSource) corrupt(err error) error {
	return fmt.Errorf("trace %s (%s): pack chunk %d: %w", s.info.Name, s.info.Path, s.chunk, err)
}

// BuildPack packs the calls of a stored trace that has no pack (one
// ingested before packs existed) from its calls table, in one
// transaction; a trace with a pack is left alone. It reads with one
// connection of db while writing with another.
func BuildPack(ctx context.Context, db *sqlx.DB, id int64) error {
	if packed, err := hasPack(ctx, db, id); err != nil || packed {
		return err
	}
	src, err := Calls(db, id)
	if err != nil {
		return err
	}
	defer src.Close()
	tx, err := db.BeginTxx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback() // no-op after Commit
	w, err := newPackWriter(ctx, tx, id)
	if err != nil {
		return err
	}
	defer w.close()
	for {
		c, err := src.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return err
		}
		if err := w.add(c); err != nil {
			return fmt.Errorf("pack trace %d: call at line %d: %w", id, c.TraceLine, err)
		}
	}
	if err := w.finish(); err != nil {
		return fmt.Errorf("pack trace %d: %w", id, err)
	}
	return tx.Commit()
}
