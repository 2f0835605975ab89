package store

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
)

// The pack of a trace (tables trace_shapes and trace_packs, schema
// 0005_trace_packs.sql) holds its calls as the distinct call shapes, each
// stored once, and per call a few varints: shape, call time, return time
// and trace line, in chunks compressed with zstd (blobEncoder). Loading
// it skips both the SQL row per call and the parsing of the parameter
// text of every call.

// packChunkCalls is the number of calls per trace_packs row: a loader holds
// one chunk at a time (about half a megabyte decompressed). Tests lower it to make
// small traces span chunks.
var packChunkCalls = 1 << 16

// tickScale is the resolution of the times a trace writes (8 decimals).
const tickScale = 1e8

// maxTicks bounds the tick counts stored as integers: below 2^53 every
// count is exact in a float64, and zigzag(ticks)<<1 fits a uint64.
const maxTicks = 1 << 53

// rawTime tags a time stored as its 8 IEEE 754 bytes: tick counts are
// stored shifted left by one, so they are even.
const rawTime = 1

// appendTime appends t as ticks = round(t*1e8) when ticks/1e8 gives back
// t bit for bit (it does for every time a trace writes: the division is
// correctly rounded, as strtod is), else as the tagged raw float64.
func appendTime(b []byte, t float64) []byte {
	if r := math.Round(t * tickScale); math.Abs(r) < maxTicks {
		ticks := int64(r)
		if math.Float64bits(float64(ticks)/tickScale) == math.Float64bits(t) {
			return binary.AppendUvarint(b, zigzag(ticks)<<1)
		}
	}
	b = binary.AppendUvarint(b, rawTime)
	return binary.LittleEndian.AppendUint64(b, math.Float64bits(t))
}

func zigzag(v int64) uint64   { return uint64(v<<1) ^ uint64(v>>63) }
func unzigzag(u uint64) int64 { return int64(u>>1) ^ -int64(u&1) }

// packedCall is one call of a pack: a shape and what varies between calls
// of the same shape.
type packedCall struct {
	shape             uint64
	callTime, retTime float64
	traceLine         int
}

// appendCall appends c to a chunk whose previous call was on trace line
// prevLine (0 for the first call of a chunk).
func appendCall(b []byte, c packedCall, prevLine int) []byte {
	b = binary.AppendUvarint(b, c.shape)
	b = appendTime(b, c.callTime)
	b = appendTime(b, c.retTime)
	return binary.AppendVarint(b, int64(c.traceLine-prevLine))
}

var errPackEnd = errors.New("unexpected end of the chunk")

// chunkDecoder reads the calls of one chunk in order.
type chunkDecoder struct {
	data     []byte
	off      int
	prevLine int
}

func (d *chunkDecoder) reset(data []byte) { *d = chunkDecoder{data: data} }

// next decodes the next call; the error says what was expected at which
// byte of the chunk.
func (d *chunkDecoder) next() (packedCall, error) {
	var c packedCall
	var err error
	start := d.off
	if c.shape, err = d.uvarint(); err != nil {
		return c, fmt.Errorf("byte %d: shape: %w", start, err)
	}
	if c.callTime, err = d.time(); err != nil {
		return c, fmt.Errorf("byte %d: call time: %w", start, err)
	}
	if c.retTime, err = d.time(); err != nil {
		return c, fmt.Errorf("byte %d: return time: %w", start, err)
	}
	delta, n := binary.Varint(d.data[d.off:])
	if n <= 0 {
		return c, fmt.Errorf("byte %d: trace line: %w", start, errPackEnd)
	}
	d.off += n
	d.prevLine += int(delta)
	c.traceLine = d.prevLine
	return c, nil
}

// done reports whether every byte of the chunk was decoded.
func (d *chunkDecoder) done() bool { return d.off == len(d.data) }

func (d *chunkDecoder) uvarint() (uint64, error) {
	// Most varints of a pack (shapes, line steps) are one byte, and two-
	// byte ones (most times) are next: those are read without the loop.
	if d.off+1 < len(d.data) {
		b0 := d.data[d.off]
		if b0 < 0x80 {
			d.off++
			return uint64(b0), nil
		}
		if b1 := d.data[d.off+1]; b1 < 0x80 {
			d.off += 2
			return uint64(b0&0x7f) | uint64(b1)<<7, nil
		}
	}
	v, n := binary.Uvarint(d.data[d.off:])
	if n <= 0 {
		return 0, errPackEnd
	}
	d.off += n
	return v, nil
}

func (d *chunkDecoder) time() (float64, error) {
	v, err := d.uvarint()
	switch {
	case err != nil:
		return 0, err
	case v == rawTime:
		if len(d.data)-d.off < 8 {
			return 0, errPackEnd
		}
		t := math.Float64frombits(binary.LittleEndian.Uint64(d.data[d.off:]))
		d.off += 8
		return t, nil
	case v&1 != 0:
		return 0, fmt.Errorf("bad time tag %#x", v)
	}
	return float64(unzigzag(v>>1)) / tickScale, nil
}
