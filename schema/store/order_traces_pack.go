package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"

	"github.com/jmoiron/sqlx"

	"github.com/presage-dvm/presage/orders/tracefile"
	"github.com/presage-dvm/presage/schema"
	"github.com/presage-dvm/presage/sim/ordertrace"
)

// steps are the Go steps of the migrations (schema.Step), which Open
// hands to schema.Migrate.
var steps = []schema.Step{
	{Name: "pack-order-traces", Run: packOrderTraces},
	{Name: "compress-trace-packs", Run: compressTracePacks},
}

// packOrderTraces is migration 24's step: every order trace stored before
// schema 14, as chunks of JSON lines without counts (packing 0), is
// packed as an ingest packs a trace today. Its lines are read and checked
// by the one reader of the format (ordertrace.NewReader, under the header
// its row keeps), its orders packed into new chunks, staged at negative
// numbers beside the old ones, its names and counts stored; then the old
// chunks are deleted and the new ones numbered from 0. It runs in the
// migration's transaction: a trace that does not read back whole stops
// the migration, and the store stays as it was.
func packOrderTraces(ctx context.Context, conn *sqlx.Conn) error {
	var legacy []OrderTraceInfo
	if err := conn.SelectContext(ctx, &legacy, `SELECT `+orderTraceColumns+` FROM order_traces WHERE packing = 0 ORDER BY id`); err != nil {
		return err
	}
	for _, info := range legacy {
		if err := packOrderTrace(ctx, conn, info); err != nil {
			return fmt.Errorf("order trace %s (id %d): %w", info.Name, info.ID, err)
		}
	}
	return nil
}

// packOrderTrace packs one trace stored as JSON lines.
func packOrderTrace(ctx context.Context, conn *sqlx.Conn, info OrderTraceInfo) error {
	header, err := tracefile.AppendHeader(nil, info.header())
	if err != nil {
		return err
	}
	src, err := ordertrace.NewReader(&lineChunks{ctx: ctx, q: conn, id: info.ID, buf: header}, info.Name)
	if err != nil {
		return err
	}
	w := &OrderWriter{ctx: ctx, tx: conn, id: info.ID, name: info.Name, packer: ordertrace.NewPacker(), staged: true}
	for {
		o, err := src.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		if err := w.Add(o); err != nil {
			return err
		}
	}
	if err := w.finish(); err != nil {
		return err
	}
	if got := w.counts.Orders(); got != info.Orders {
		return fmt.Errorf("%d orders read back, %d stored", got, info.Orders)
	}
	if _, err := conn.ExecContext(ctx, `DELETE FROM order_trace_chunks WHERE trace_id = ? AND chunk >= 0`, info.ID); err != nil {
		return err
	}
	_, err = conn.ExecContext(ctx, `UPDATE order_trace_chunks SET chunk = -1 - chunk WHERE trace_id = ?`, info.ID)
	return err
}

// lineChunks is the text of a trace stored as JSON lines: after the
// header it starts with, its chunks fetched and decompressed as the
// reader reaches them, up to the first staged one.
type lineChunks struct {
	ctx   context.Context
	q     sqlx.QueryerContext
	id    int64
	text  []byte // the current chunk, decompressed
	buf   []byte // the unread rest of it
	chunk int
	done  bool
}

func (r *lineChunks) Read(p []byte) (int, error) {
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

func (r *lineChunks) next() error {
	var data []byte
	err := sqlx.GetContext(r.ctx, r.q, &data, `SELECT data FROM order_trace_chunks WHERE trace_id = ? AND chunk = ?`, r.id, r.chunk)
	if errors.Is(err, sql.ErrNoRows) {
		r.done = true
		return nil
	}
	if err != nil {
		return err
	}
	// Read calls next only when the previous chunk is used up.
	r.text, err = blobDecoder().DecodeAll(data, r.text[:0])
	if err != nil {
		return fmt.Errorf("chunk %d: %w", r.chunk, err)
	}
	r.buf = r.text
	r.chunk++
	return nil
}
