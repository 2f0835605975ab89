package store

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/presage-dvm/presage/sim/ordertrace"
)

// An order trace (docs/orders.md) is stored packed (ordertrace.Packer),
// zstd-compressed in chunks of orderChunkOrders consecutive orders
// (order_trace_chunks), its segments apart; the trace's row keeps the
// names the chunks refer to and the orders' counts (ordertrace.Counts). A
// simulation streams the chunks back one at a time. Traces stored before
// schema 14 as chunks of JSON lines are packed by migration 24
// (order_traces_pack.go), so every stored trace has this one form.

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
	// OrderCost and WaitCost are the runtime's costs of the header
	// (ordertrace.Header), 0 for a trace stored before schema 20.
	OrderCost float64 `db:"order_cost"`
	WaitCost  float64 `db:"wait_cost"`
	// Slowdown is the header's slowdown by orders running at once,
	// empty for a trace without one or stored before schema 20.
	Slowdown floats `db:"slowdown"`
	// Existing is set when the file's content was stored already and
	// nothing was written.
	Existing bool `db:"-"`
}

const orderTraceColumns = `id, name, path, sha256, bytes, program, unit, machine, orders, work, span, ingested_at, order_cost, wait_cost, slowdown`

// OrderWriter receives the orders of a trace being stored.
type OrderWriter struct {
	ctx      context.Context
	tx       txQueryer
	id       int64
	name     string
	packer   *ordertrace.Packer
	counts   ordertrace.Counts
	data     []byte // the current chunk's orders, packed
	segments []byte // and their segments
	zipped   []byte // both compressed, reused: sqlite copies a blob it is given
	n        int    // orders in the chunk
	chunk    int
	closed   bool // the last chunk is written: see close
	// staged writes the chunks at negative numbers (-1 for the first),
	// beside the chunks of the trace's old form, which migration 24's
	// step then replaces (order_traces_pack.go).
	staged bool
}

// Add appends an order (validated by the caller's reader) to the trace.
func (w *OrderWriter) Add(o *ordertrace.Order) error {
	if w.closed {
		return errors.New("store order trace: order added after the last")
	}
	if err := w.counts.Add(o); err != nil {
		return err
	}
	if w.n == 0 {
		w.data = ordertrace.StartChunk(w.data[:0], o.ID)
		w.segments = w.segments[:0]
	}
	w.data, w.segments = w.packer.Append(w.data, w.segments, o)
	w.n++
	if w.n == orderChunkOrders {
		return w.flush()
	}
	return nil
}

func (w *OrderWriter) flush() error {
	if w.n == 0 {
		return nil
	}
	w.zipped = orderChunkEncoder().EncodeAll(w.data, w.zipped[:0])
	n := len(w.zipped)
	w.zipped = orderChunkEncoder().EncodeAll(w.segments, w.zipped)
	data, segments := w.zipped[:n:n], w.zipped[n:]
	number := w.chunk
	if w.staged {
		number = -1 - w.chunk
	}
	if _, err := w.tx.ExecContext(w.ctx, `INSERT INTO order_trace_chunks(trace_id, chunk, orders, data, segments) VALUES (?, ?, ?, ?, ?)`,
		w.id, number, w.n, data, segments); err != nil {
		return err
	}
	w.chunk++
	w.n = 0
	// A chunk of a master's order with its millions of requests took
	// buffers of a hundred MB: the next chunks get buffers of their own
	// size rather than keeping those for the rest of the trace.
	if cap(w.data)+cap(w.segments)+cap(w.zipped) > maxKeptBuffers {
		w.data, w.segments, w.zipped = nil, nil, nil
	}
	return nil
}

// maxKeptBuffers bounds the buffers an OrderWriter keeps from one chunk
// to the next (a chunk of 16,384 typical orders packs into about 1 MB).
const maxKeptBuffers = 16 << 20

// Stored returns the orders added, as the store now holds them (without
// their segments), and their counts; no order may be added after. A
// second pass over the trace reads them rather than the file: an
// analysis that knows the counts keeps only the orders it still needs
// (workspan.AnalyzeCounted).
func (w *OrderWriter) Stored() (ordertrace.Scanner, *ordertrace.Counts, error) {
	if err := w.close(); err != nil {
		return nil, nil, err
	}
	f := &chunkFetcher{ctx: w.ctx, q: w.tx, id: w.id}
	return ordertrace.NewChunkSource(w.name, ordertrace.Header{}, w.packer.Names(), f.next), &w.counts, nil
}

// close writes the last chunk and checks the counts, once.
func (w *OrderWriter) close() error {
	if w.closed {
		return nil
	}
	if err := w.flush(); err != nil {
		return err
	}
	if err := w.counts.Finish(); err != nil {
		return err
	}
	w.closed = true
	return nil
}

// finish writes the last chunk, the names and the counts.
func (w *OrderWriter) finish() error {
	if err := w.close(); err != nil {
		return err
	}
	counts, err := w.counts.AppendBinary(nil)
	if err != nil {
		return err
	}
	names, err := json.Marshal(w.packer.Names())
	if err != nil {
		return err
	}
	_, err = w.tx.ExecContext(w.ctx, `UPDATE order_traces SET names = ?, counts = ? WHERE id = ?`,
		string(names), orderChunkEncoder().EncodeAll(counts, nil), w.id)
	return err
}

// txQueryer is the transaction an OrderWriter writes in: an ingest's, or
// the connection migrating the store.
type txQueryer interface {
	sqlx.ExecerContext
	sqlx.QueryerContext
}

// SaveOrderTrace stores an order trace in one transaction: write is called
// with a writer to Add every order to, and returns the info to record
// (its Orders, Work and Span known once every order has been read; its
// SHA256 too, when info has none). When the store holds a trace with the
// same SHA256 already (a concurrent ingest of the same bytes won), that
// trace comes back with Existing set.
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
		w := &OrderWriter{ctx: ctx, tx: tx, id: id, name: info.Name, packer: ordertrace.NewPacker()}
		done, err := write(w)
		if err == nil {
			err = w.finish()
		}
		if err != nil {
			return info, err
		}
		if done.Orders != w.counts.Orders() {
			return info, fmt.Errorf("store order trace %s: %d orders stored, %d analysed", info.Path, w.counts.Orders(), done.Orders)
		}
		done.ID = id
		if done.SHA256 == "" {
			done.SHA256 = info.SHA256
		}
		if done.SHA256 == "" {
			return info, fmt.Errorf("store order trace %s: no SHA256 of its file", info.Path)
		}
		info.SHA256 = done.SHA256 // for lookup
		_, err = tx.ExecContext(ctx, `UPDATE order_traces SET sha256 = ?, bytes = ?, program = ?, unit = ?, machine = ?, orders = ?,
			work = ?, span = ?, order_cost = ?, wait_cost = ?, slowdown = ? WHERE id = ?`,
			done.SHA256, done.Bytes, done.Program, done.Unit, done.Machine, done.Orders, done.Work, done.Span, done.OrderCost, done.WaitCost, done.Slowdown, id)
		return done, err
	}
	lookup := func() (OrderTraceInfo, bool, error) { return s.OrderTraceBySHA(ctx, info.SHA256) }
	return saveFile(ctx, s, "order_traces", insert, lookup)
}

// HasOrderTraceOfSize reports whether the store holds an order trace
// whose file had size bytes: only such a trace can have a file's bytes.
func (s *Store) HasOrderTraceOfSize(ctx context.Context, size int64) (bool, error) {
	var has bool
	err := s.db.GetContext(ctx, &has, `SELECT EXISTS (SELECT 1 FROM order_traces WHERE bytes = ?)`, size)
	return has, err
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

// OpenOrderTrace opens a stored order trace for one pass over its orders,
// reading one chunk at a time. The orders come without their segments
// unless segments is set (no simulation needs them).
func (s *Store) OpenOrderTrace(ctx context.Context, info OrderTraceInfo, segments bool) (ordertrace.Source, error) {
	names, err := s.orderTraceNames(ctx, info)
	if err != nil {
		return nil, err
	}
	f := &chunkFetcher{ctx: ctx, q: s.db, id: info.ID, segments: segments}
	return ordertrace.NewChunkSource(info.Name, info.header(), names, f.next), nil
}

// LoadOrderTrace reads a stored order trace's chunks into memory,
// decompressed and without their segments, for the many simulations of a
// sweep to share.
func (s *Store) LoadOrderTrace(ctx context.Context, info OrderTraceInfo) (*ordertrace.PackedTrace, error) {
	names, err := s.orderTraceNames(ctx, info)
	if err != nil {
		return nil, err
	}
	t := &ordertrace.PackedTrace{Name: info.Name, Header: info.header(), Names: names}
	f := &chunkFetcher{ctx: ctx, q: s.db, id: info.ID}
	for {
		var fresh chunkBufs // this chunk is kept: the next goes to fresh memory
		orders, _, err := f.fetch(len(t.Chunks), &fresh)
		if err == io.EOF {
			return t, nil
		}
		if err != nil {
			return nil, fmt.Errorf("order trace %s, chunk %d: %w", info.Name, len(t.Chunks), err)
		}
		t.Chunks = append(t.Chunks, slices.Clip(orders))
	}
}

// orderTraceNames returns the procedure and block names a packed trace's
// chunks refer to.
func (s *Store) orderTraceNames(ctx context.Context, info OrderTraceInfo) ([]string, error) {
	var names string
	if err := s.db.GetContext(ctx, &names, `SELECT coalesce(names, '') FROM order_traces WHERE id = ?`, info.ID); err != nil {
		return nil, err
	}
	var list []string
	if err := json.Unmarshal([]byte(names), &list); err != nil {
		return nil, fmt.Errorf("order trace %s: stored names: %w", info.Name, err)
	}
	return list, nil
}

// OrderTraceCounts returns the counts of a stored order trace's orders
// (ordertrace.Counts).
func (s *Store) OrderTraceCounts(ctx context.Context, info OrderTraceInfo) (*ordertrace.Counts, error) {
	var data []byte
	if err := s.db.GetContext(ctx, &data, `SELECT counts FROM order_traces WHERE id = ?`, info.ID); err != nil {
		return nil, err
	}
	raw, err := blobDecoder().DecodeAll(data, nil)
	if err != nil {
		return nil, fmt.Errorf("order trace %s: stored counts: %w", info.Name, err)
	}
	c := new(ordertrace.Counts)
	if err := c.UnmarshalBinary(raw); err != nil {
		return nil, fmt.Errorf("order trace %s: stored counts: %w", info.Name, err)
	}
	return c, nil
}

// header returns the header of the stored trace.
func (info OrderTraceInfo) header() ordertrace.Header {
	return ordertrace.Header{Format: ordertrace.Format, Version: ordertrace.Version, Program: info.Program,
		Unit: info.Unit, Machine: info.Machine, Orders: info.Orders, OrderCost: info.OrderCost, WaitCost: info.WaitCost, Slowdown: info.Slowdown}
}

// floats is a list of numbers stored as a JSON array, ” when empty.
type floats []float64

func (f floats) Value() (driver.Value, error) {
	if len(f) == 0 {
		return "", nil
	}
	b, err := json.Marshal([]float64(f))
	return string(b), err
}

func (f *floats) Scan(v any) error {
	var text string
	switch v := v.(type) {
	case string:
		text = v
	case []byte:
		text = string(v)
	case nil:
	default:
		return fmt.Errorf("a list of numbers stored as %T", v)
	}
	*f = nil
	if text == "" {
		return nil
	}
	return json.Unmarshal([]byte(text), (*[]float64)(f))
}

// chunkFetcher fetches a packed stored trace's chunks one after the
// other, decompressed, for an ordertrace.ChunkSource. Its next fetches
// each chunk on a goroutine while the reader reads the chunk before:
// reading and decompressing the chunks is a tenth of a simulation, which
// the machine's other core then does.
type chunkFetcher struct {
	ctx      context.Context
	q        sqlx.QueryerContext // the store, or the transaction writing the trace
	id       int64
	segments bool
	chunk    int          // the next chunk to fetch
	bufs     [2]chunkBufs // in turn: the chunk being read, the one being fetched
	ahead    chan fetched // the chunk being fetched; nil before the first
	err      error        // io.EOF after the last chunk, or the error that stopped the fetching
}

// chunkBufs is the memory a chunk is decompressed into, reused.
type chunkBufs struct{ orders, segs []byte }

// fetched is a chunk fetched ahead: its orders and segments, or an error
// (io.EOF after the last).
type fetched struct {
	orders, segs []byte
	err          error
}

// next returns the next chunk's orders and, when asked, segments (nil
// otherwise); io.EOF after the last. What it returned the time before is
// no longer the caller's: its memory takes the chunk after.
func (f *chunkFetcher) next() ([]byte, []byte, error) {
	if f.err != nil {
		return nil, nil, f.err
	}
	if f.ahead == nil { // the first call: every later one leaves a fetch under way
		f.fetchAhead()
	}
	c := <-f.ahead
	if f.err = c.err; c.err == nil {
		f.fetchAhead()
	}
	return c.orders, c.segs, c.err
}

// fetchAhead starts fetching the next chunk into the memory of the one
// before the chunk the caller gets now. The goroutine ends once it has
// fetched (the channel holds its answer), so a caller that stops
// reading leaves none behind.
func (f *chunkFetcher) fetchAhead() {
	buf, chunk := &f.bufs[f.chunk%2], f.chunk
	f.chunk++
	ahead := make(chan fetched, 1)
	f.ahead = ahead
	go func() {
		var c fetched
		c.orders, c.segs, c.err = f.fetch(chunk, buf)
		ahead <- c
	}()
}

// fetch returns chunk's orders and, when asked, segments, decompressed
// into buf; io.EOF when there is no such chunk.
func (f *chunkFetcher) fetch(chunk int, buf *chunkBufs) ([]byte, []byte, error) {
	cols := `data, NULL AS segments`
	if f.segments {
		cols = `data, segments`
	}
	rows, err := f.q.QueryContext(f.ctx, `SELECT `+cols+` FROM order_trace_chunks WHERE trace_id = ? AND chunk = ?`, f.id, chunk)
	if err != nil {
		return nil, nil, err
	}
	defer rows.Close()
	if !rows.Next() {
		if err := rows.Err(); err != nil {
			return nil, nil, err
		}
		return nil, nil, io.EOF
	}
	// RawBytes: the blobs are decompressed at once, so database/sql need
	// not copy them (a million-order trace is tens of MB of them).
	var data, segments sql.RawBytes
	if err := rows.Scan(&data, &segments); err != nil {
		return nil, nil, err
	}
	if buf.orders, err = blobDecoder().DecodeAll(data, buf.orders[:0]); err != nil {
		return nil, nil, err
	}
	if !f.segments {
		return buf.orders, nil, nil
	}
	if buf.segs, err = blobDecoder().DecodeAll(segments, buf.segs[:0]); err != nil {
		return nil, nil, err
	}
	return buf.orders, buf.segs, nil
}
