package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/klauspost/compress/zstd"

	"github.com/presage-dvm/presage/sim/ordertrace"
)

// An order trace (docs/orders.md) is stored as its canonical JSON lines,
// one per order as ordertrace writes them, zstd-compressed in chunks of
// orderChunkOrders consecutive orders (order_trace_chunks): a simulation
// streams it back one chunk at a time.

// chunkCoder compresses and decompresses the chunks; EncodeAll and
// DecodeAll are safe for concurrent use, so every trace shares it.
var chunkCoder = struct {
	enc *zstd.Encoder
	dec *zstd.Decoder
}{must(zstd.NewWriter(nil)), must(zstd.NewReader(nil))}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err) // options are constant: cannot fail
	}
	return v
}

// orderChunkOrders is the number of orders per chunk (a few megabytes of
// text, a few hundred kilobytes compressed). Tests lower it.
var orderChunkOrders = 1 << 14

// OrderTraceInfo describes a stored order trace (a row of order_traces).
type OrderTraceInfo struct {
	ID         int64   `db:"id"`
	Name       string  `db:"name"` // file base name without .jsonl/.gz
	Path       string  `db:"path"` // as given to the ingest
	SHA256     string  `db:"sha256"`
	Bytes      int64   `db:"bytes"` // of the file
	Program    string  `db:"program"`
	Unit       string  `db:"unit"`
	Machine    string  `db:"machine"`
	Orders     int64   `db:"orders"`
	Work       float64 `db:"work"`
	Span       float64 `db:"span"`
	IngestedAt string  `db:"ingested_at"`
	// Existing is set when the file's content was stored already and
	// nothing was written.
	Existing bool `db:"-"`
}

const orderTraceColumns = `id, name, path, sha256, bytes, program, unit, machine, orders, work, span, ingested_at`

// OrderWriter receives the orders of a trace being stored.
type OrderWriter struct {
	ctx    context.Context
	tx     *sqlx.Tx
	id     int64
	text   []byte // the current chunk's lines
	n      int    // orders in text
	chunk  int
	orders int64
}

// Add appends an order (validated by the caller's reader) to the trace.
func (w *OrderWriter) Add(o *ordertrace.Order) error {
	w.text = append(ordertrace.AppendOrder(w.text, o), '\n')
	w.n++
	w.orders++
	if w.n == orderChunkOrders {
		return w.flush()
	}
	return nil
}

func (w *OrderWriter) flush() error {
	if w.n == 0 {
		return nil
	}
	data := chunkCoder.enc.EncodeAll(w.text, nil)
	if _, err := w.tx.ExecContext(w.ctx, `INSERT INTO order_trace_chunks(trace_id, chunk, orders, data) VALUES (?, ?, ?, ?)`,
		w.id, w.chunk, w.n, data); err != nil {
		return err
	}
	w.chunk++
	w.text, w.n = w.text[:0], 0
	return nil
}

// SaveOrderTrace stores an order trace in one transaction: write is called
// with a writer to Add every order to, and returns the info to record
// (its Orders, Work and Span known once every order has been read). When
// the store holds a trace with the same SHA256 already (a concurrent
// ingest of the same bytes won), that trace comes back with Existing set.
func (s *Store) SaveOrderTrace(ctx context.Context, info OrderTraceInfo, write func(*OrderWriter) (OrderTraceInfo, error)) (OrderTraceInfo, error) {
	if info.IngestedAt == "" {
		info.IngestedAt = time.Now().UTC().Format(time.RFC3339)
	}
	insert := func(tx *sqlx.Tx) (OrderTraceInfo, error) {
		res, err := tx.ExecContext(ctx, `INSERT INTO order_traces(name, path, sha256, bytes, program, unit, machine,
			orders, work, span, ingested_at) VALUES (?, ?, ?, 0, '', '', '', 0, 0, 0, ?)`,
			info.Name, info.Path, info.SHA256, info.IngestedAt)
		if err != nil {
			return info, fmt.Errorf("store order trace %s: %w", info.Path, err)
		}
		id, err := res.LastInsertId()
		if err != nil {
			return info, err
		}
		w := &OrderWriter{ctx: ctx, tx: tx, id: id}
		done, err := write(w)
		if err == nil {
			err = w.flush()
		}
		if err != nil {
			return info, err
		}
		if done.Orders != w.orders {
			return info, fmt.Errorf("store order trace %s: %d orders stored, %d analysed", info.Path, w.orders, done.Orders)
		}
		done.ID = id
		_, err = tx.ExecContext(ctx, `UPDATE order_traces SET bytes = ?, program = ?, unit = ?, machine = ?, orders = ?,
			work = ?, span = ? WHERE id = ?`, done.Bytes, done.Program, done.Unit, done.Machine, done.Orders, done.Work, done.Span, id)
		return done, err
	}
	lookup := func() (OrderTraceInfo, bool, error) { return s.OrderTraceBySHA(ctx, info.SHA256) }
	return saveFile(ctx, s, "order_traces", insert, lookup)
}

// OrderTraceBySHA returns the stored order trace whose file had the given
// sha256, with Existing set, and whether there is one.
func (s *Store) OrderTraceBySHA(ctx context.Context, sum string) (OrderTraceInfo, bool, error) {
	info, found, err := getOptional[OrderTraceInfo](ctx, s.db, `SELECT `+orderTraceColumns+` FROM order_traces WHERE sha256 = ?`, sum)
	info.Existing = found
	return info, found, err
}

// OrderTrace returns the stored order trace called name (the latest of
// that name) or, when name is the number of one, that trace. The error of
// an unknown trace wraps ErrNotFound.
func (s *Store) OrderTrace(name string) (OrderTraceInfo, error) {
	var info OrderTraceInfo
	found, err := s.getByNameOrID(&info, "order_traces", orderTraceColumns, name)
	if err == nil && !found {
		err = s.missing("order_traces", "order trace", "orders", name)
	}
	return info, err
}

// OrderTraces lists the stored order traces by name, then id.
func (s *Store) OrderTraces() ([]OrderTraceInfo, error) {
	var out []OrderTraceInfo
	if err := s.db.Select(&out, `SELECT `+orderTraceColumns+` FROM order_traces ORDER BY name, id`); err != nil {
		return nil, fmt.Errorf("list order traces: %w", err)
	}
	return out, nil
}

// OpenOrderTrace opens a stored order trace for one pass over its orders
// (an ordertrace.Source), reading one chunk at a time.
func (s *Store) OpenOrderTrace(ctx context.Context, info OrderTraceInfo) (*ordertrace.Reader, error) {
	header, err := ordertrace.AppendHeader(nil, ordertrace.Header{Format: ordertrace.Format, Version: ordertrace.Version,
		Program: info.Program, Unit: info.Unit, Machine: info.Machine, Orders: info.Orders})
	if err != nil {
		return nil, err
	}
	chunks := &chunkReader{ctx: ctx, s: s, id: info.ID, buf: header}
	return ordertrace.NewReader(chunks, info.Name)
}

// chunkReader is the text of a stored order trace, its chunks fetched and
// decompressed as the reader reaches them.
type chunkReader struct {
	ctx   context.Context
	s     *Store
	id    int64
	text  []byte // the current chunk, decompressed
	buf   []byte // the unread rest of it
	chunk int
	done  bool
}

func (r *chunkReader) Read(p []byte) (int, error) {
	for len(r.buf) == 0 {
		if r.done {
			return 0, io.EOF
		}
		if err := r.next(); err != nil {
			return 0, err
		}
	}
	n := copy(p, r.buf)
	r.buf = r.buf[n:]
	return n, nil
}

func (r *chunkReader) next() error {
	var data []byte
	err := r.s.db.GetContext(r.ctx, &data, `SELECT data FROM order_trace_chunks WHERE trace_id = ? AND chunk = ?`, r.id, r.chunk)
	if errors.Is(err, sql.ErrNoRows) {
		r.done = true
		return nil
	}
	if err != nil {
		return err
	}
	// Read calls next only when the previous chunk is used up.
	r.text, err = chunkCoder.dec.DecodeAll(data, r.text[:0])
	if err != nil {
		return fmt.Errorf("order trace %d, chunk %d: %w", r.id, r.chunk, err)
	}
	r.buf = r.text
	r.chunk++
	return nil
}
