package sts

import (
	"encoding/binary"
	"math"
)

// fields reads the writer's values out of a slice of a processor buffer.
// Values narrower than the reader's type are zero-extended and wider ones
// keep their low-order bytes, as the original analyzer copies them; values
// of the reader's own size keep their sign.
type fields struct {
	b          []byte
	base       int64 // buffer offset of b[0]
	pos        int
	order      binary.ByteOrder
	ss, sl, sv int
}

// need reports whether n more bytes are available.
func (f *fields) need(n int) bool { return n >= 0 && f.pos+n <= len(f.b) }

// offset is the buffer offset of the next value.
func (f *fields) offset() int64 { return f.base + int64(f.pos) }

// raw reads n bytes as an unsigned integer of at most 8 bytes.
func (f *fields) raw(n int) uint64 {
	b := f.b[f.pos : f.pos+n]
	f.pos += n
	if n > 8 {
		if f.order == binary.LittleEndian {
			b = b[:8]
		} else {
			b = b[n-8:]
		}
		n = 8
	}
	var v uint64
	if f.order == binary.LittleEndian {
		for i := n - 1; i >= 0; i-- {
			v = v<<8 | uint64(b[i])
		}
	} else {
		for i := 0; i < n; i++ {
			v = v<<8 | uint64(b[i])
		}
	}
	return v
}

func (f *fields) short() int {
	v := f.raw(f.ss)
	if f.ss == 2 {
		return int(int16(v))
	}
	return int(v)
}

// long reads a long; a narrower one is zero-extended, as the original
// copies the bytes.
func (f *fields) long() int64 { return int64(f.raw(f.sl)) }

func (f *fields) pointer() uint64 { return f.raw(f.sv) }

func (f *fields) double() float64 { return math.Float64frombits(f.raw(8)) }

// cstring reads a NUL-terminated string; ok is false when no NUL follows.
func (f *fields) cstring() (s string, ok bool) {
	for i := f.pos; i < len(f.b); i++ {
		if f.b[i] == 0 {
			s = string(f.b[f.pos:i])
			f.pos = i + 1
			return s, true
		}
	}
	return "", false
}

func (f *fields) skip(n int) { f.pos += n }
