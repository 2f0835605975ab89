package store

import (
	"context"
	"testing"
)

// SetPackChunkCalls makes packs of n calls per chunk until the test ends,
// so that small traces span several chunks.
func SetPackChunkCalls(tb testing.TB, n int) {
	old := packChunkCalls
	packChunkCalls = n
	tb.Cleanup(func() { packChunkCalls = old })
}

// PackChunkCalls is the number of calls per pack chunk.
func PackChunkCalls() int { return packChunkCalls }

// SetMaxOpenConns bounds the connections of the store, for tests of what
// holds one.
func (s *Store) SetMaxOpenConns(n int) { s.db.SetMaxOpenConns(n) }

// RawPackTimes counts the times of a stored pack chunk (compressed) kept
// as raw float64s rather than ticks.
func RawPackTimes(data []byte) (int, error) {
	raw, err := blobDecoder().DecodeAll(data, nil)
	if err != nil {
		return 0, err
	}
	var d chunkDecoder
	d.reset(raw)
	n := 0
	for !d.done() {
		c, err := d.next()
		if err != nil {
			return n, err
		}
		for _, t := range []float64{c.callTime, c.retTime} {
			if appendTime(nil, t)[0] == rawTime {
				n++
			}
		}
	}
	return n, nil
}

// DamagePackChunk replaces the calls of chunk k of trace id's pack with
// damage of them (decompressed), stored compressed as a pack chunk is.
func (s *Store) DamagePackChunk(tb testing.TB, id int64, k int, damage func([]byte) []byte) {
	tb.Helper()
	ctx := context.Background()
	var data []byte
	if err := s.db.GetContext(ctx, &data, `SELECT data FROM trace_packs WHERE trace_id = ? AND chunk = ?`, id, k); err != nil {
		tb.Fatal(err)
	}
	raw, err := blobDecoder().DecodeAll(data, nil)
	if err != nil {
		tb.Fatal(err)
	}
	if _, err := s.db.ExecContext(ctx, `UPDATE trace_packs SET data = ? WHERE trace_id = ? AND chunk = ?`,
		blobEncoder().EncodeAll(damage(raw), nil), id, k); err != nil {
		tb.Fatal(err)
	}
}

// UncompressPacks makes s a store of schema 24, whose trace packs were
// stored uncompressed: every chunk decompressed, migrations 25 and later
// undone.
func (s *Store) UncompressPacks(tb testing.TB) {
	tb.Helper()
	ctx := context.Background()
	var chunks []struct {
		Trace int64  `db:"trace_id"`
		Chunk int    `db:"chunk"`
		Data  []byte `db:"data"`
	}
	if err := s.db.SelectContext(ctx, &chunks, `SELECT trace_id, chunk, data FROM trace_packs`); err != nil {
		tb.Fatal(err)
	}
	for _, c := range chunks {
		raw, err := blobDecoder().DecodeAll(c.Data, []byte{})
		if err != nil {
			tb.Fatal(err)
		}
		if _, err := s.db.ExecContext(ctx, `UPDATE trace_packs SET data = ? WHERE trace_id = ? AND chunk = ?`, raw, c.Trace, c.Chunk); err != nil {
			tb.Fatal(err)
		}
	}
	// The migrations after 25 undone too, so that 25 runs again.
	for _, q := range []string{`ALTER TABLE order_runs DROP COLUMN order_cost`, `ALTER TABLE order_runs DROP COLUMN wait_cost`,
		`ALTER TABLE order_runs DROP COLUMN ahead`, `ALTER TABLE order_runs DROP COLUMN ahead_max`, `ALTER TABLE order_runs DROP COLUMN relay`,
		`DELETE FROM schema_version WHERE version >= 25`} {
		if _, err := s.db.ExecContext(ctx, q); err != nil {
			tb.Fatal(err)
		}
	}
}
