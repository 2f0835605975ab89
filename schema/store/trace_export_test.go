package store

import "testing"

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

// RawPackTimes counts the times of a pack chunk stored as raw float64s
// rather than ticks.
func RawPackTimes(data []byte) (int, error) {
	var d chunkDecoder
	d.reset(data)
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
