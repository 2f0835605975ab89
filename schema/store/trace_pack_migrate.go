package store

import (
	"context"
	"fmt"

	"github.com/jmoiron/sqlx"
)

// compressTracePacks is migration 25's step: every chunk of every trace's
// pack, stored uncompressed before schema 25, is compressed as
// packWriter.flush compresses a new one. The bytes are kept as they are:
// a damaged chunk stays damaged, and the pack's reader says so when the
// trace is loaded. It runs in the migration's transaction, one chunk in
// memory at a time.
func compressTracePacks(ctx context.Context, conn *sqlx.Conn) error {
	var chunks []struct {
		Trace int64 `db:"trace_id"`
		Chunk int   `db:"chunk"`
	}
	if err := conn.SelectContext(ctx, &chunks, `SELECT trace_id, chunk FROM trace_packs ORDER BY trace_id, chunk`); err != nil {
		return err
	}
	var data, zipped []byte
	for _, c := range chunks {
		if err := conn.GetContext(ctx, &data, `SELECT data FROM trace_packs WHERE trace_id = ? AND chunk = ?`, c.Trace, c.Chunk); err != nil {
			return fmt.Errorf("trace %d, pack chunk %d: %w", c.Trace, c.Chunk, err)
		}
		zipped = blobEncoder().EncodeAll(data, zipped[:0])
		if zipped == nil {
			zipped = []byte{} // an empty trace's chunk: not NULL
		}
		if _, err := conn.ExecContext(ctx, `UPDATE trace_packs SET data = ? WHERE trace_id = ? AND chunk = ?`, zipped, c.Trace, c.Chunk); err != nil {
			return fmt.Errorf("trace %d, pack chunk %d: %w", c.Trace, c.Chunk, err)
		}
	}
	return nil
}
