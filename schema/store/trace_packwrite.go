package store

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/jmoiron/sqlx"

	"github.com/presage-dvm/presage/sim/trace"
)

// shapeKey is what a call shares with the calls of its shape. The pattern
// is left out: it follows from the call parameters.
type shapeKey struct {
	fn, file string
	line     int
	in, out  string
}

// packWriter packs the calls of one trace within the transaction that
// stores it: a shape is inserted when it first appears, a chunk when it
// is full.
type packWriter struct {
	ctx    context.Context
	tx     *sqlx.Tx
	id     int64
	shapes map[shapeKey]uint64
	keys   []shapeKey // by shape
	// follow[s] is the shape that followed shape s last, -1 if none yet;
	// prev is the shape of the previous call.
	follow []int
	prev   int
	insert *sql.Stmt // of a shape
	buf    []byte
	zipped []byte // buf compressed, reused
	n      int    // calls in buf
	chunk  int
	line   int // trace line of the last call in buf
	total  int
}

func newPackWriter(ctx context.Context, tx *sqlx.Tx, id int64) (*packWriter, error) {
	stmt, err := tx.PrepareContext(ctx, `INSERT INTO trace_shapes(trace_id, shape, func, line, file,
		call_params, ret_params, pattern) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`)
	if err != nil {
		return nil, err
	}
	return &packWriter{ctx: ctx, tx: tx, id: id, shapes: make(map[shapeKey]uint64), prev: -1, insert: stmt}, nil
}

// add packs c.
func (w *packWriter) add(c *trace.Call) error {
	shape, err := w.shape(c)
	if err != nil {
		return err
	}
	// The shape's number is the call's from here on, as a stored trace's
	// calls carry it: a check of the call made after it is packed
	// compiles it by the number (ingest's checkedReader).
	c.Shape = int(shape) + 1
	w.buf = appendCall(w.buf, packedCall{shape: shape, callTime: c.CallTime, retTime: c.RetTime, traceLine: c.TraceLine}, w.line)
	w.line = c.TraceLine
	w.n++
	w.total++
	if w.n == packChunkCalls {
		return w.flush()
	}
	return nil
}

// shape returns the shape of c, storing it if it is new. A trace repeats
// its sequence of calls, so the shape that followed the previous one is
// tried before the map, which would hash the parameter texts.
func (w *packWriter) shape(c *trace.Call) (uint64, error) {
	k := shapeKey{fn: c.Func, file: c.File, line: c.Line, in: c.InText, out: c.OutText}
	if w.prev >= 0 {
		if f := w.follow[w.prev]; f >= 0 && w.keys[f] == k {
			w.prev = f
			return uint64(f), nil
		}
	}
	shape, ok := w.shapes[k]
	if !ok {
		shape = uint64(len(w.keys))
		if _, err := w.insert.ExecContext(w.ctx, w.id, shape, c.Func, c.Line, c.File, c.InText, c.OutText, c.Pattern); err != nil {
			return 0, fmt.Errorf("store shape %d: %w", shape, err)
		}
		w.shapes[k] = shape
		w.keys = append(w.keys, k)
		w.follow = append(w.follow, -1)
	}
	if w.prev >= 0 {
		w.follow[w.prev] = int(shape)
	}
	w.prev = int(shape)
	return shape, nil
}

// flush stores the calls packed since the last flush as the next chunk,
// compressed (blobEncoder): a trace repeats its loops' calls, and the
// chunk shrinks to a few percent, which SQLite writes (to its log, then
// to the file) at a fraction of the cost of the whole.
func (w *packWriter) flush() error {
	w.zipped = blobEncoder().EncodeAll(w.buf, w.zipped[:0])
	if w.zipped == nil {
		w.zipped = []byte{} // the empty chunk of a trace without calls: not NULL
	}
	if _, err := w.tx.ExecContext(w.ctx, `INSERT INTO trace_packs(trace_id, chunk, calls, data) VALUES (?, ?, ?, ?)`,
		w.id, w.chunk, w.n, w.zipped); err != nil {
		return fmt.Errorf("store chunk %d of the pack: %w", w.chunk, err)
	}
	w.buf, w.n, w.line = w.buf[:0], 0, 0
	w.chunk++
	return nil
}

// finish stores the last chunk, which is chunk 0 of an empty trace: a
// packed trace has at least one chunk.
func (w *packWriter) finish() error {
	if w.n > 0 || w.chunk == 0 {
		return w.flush()
	}
	return nil
}

func (w *packWriter) close() { w.insert.Close() }

// BuildPack packs the calls of the stored trace id if it has no pack (it
// was ingested before packs existed) from its calls table, in one
// transaction; a trace with a pack is left alone. It reads with one
// connection of the store while writing with another.
func (s *Store) BuildPack(ctx context.Context, id int64) error {
	if packed, err := hasPack(ctx, s.db, id); err != nil || packed {
		return err
	}
	src, err := s.callRows(id)
	if err != nil {
		return err
	}
	defer src.Close()
	return s.update(ctx, func(tx *sqlx.Tx) error {
		_, err := packCalls(ctx, tx, id, src)
		return err
	})
}

// packCalls writes the pack of trace id from the calls of src within tx
// and returns how many calls there were.
func packCalls(ctx context.Context, tx *sqlx.Tx, id int64, src trace.Source) (int, error) {
	w, err := newPackWriter(ctx, tx, id)
	if err != nil {
		return 0, err
	}
	defer w.close()
	// An error of src names its file and line already: it is returned as
	// is; the writer's are the store's.
	add := func(c *trace.Call) error {
		if err := w.add(c); err != nil {
			return fmt.Errorf("pack trace %d: %w", id, err)
		}
		return nil
	}
	if err := eachCall(ctx, src, add); err != nil {
		return 0, err
	}
	if err := w.finish(); err != nil {
		return 0, fmt.Errorf("pack trace %d: %w", id, err)
	}
	return w.total, nil
}
