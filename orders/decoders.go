package orders

import (
	"bytes"
	"encoding/gob"
	"sync"
)

// A value that travels between processes is a gob stream of its own
// (encode1, encode2, encode3): the definitions of its types, then the
// value. A gob.Decoder compiles an engine for each type the first time it
// meets it, and a decoder made for one stream did so for every value: on
// orders of 20 µs in worker processes, a tenth of the CPU time of the
// whole run went to compiling the same engines again (docs/performance.md,
// "Decoders kept"). So a decoder that has read a stream whole is kept,
// with the definitions it has read and the engines it has compiled, and
// decodes the next stream that carries the same definitions from that
// stream's values alone (into whatever types: gob compiles an engine per
// wire type and Go type). A sender's definitions are the same bytes for
// the same types (gob numbers a type once per process), so a stream that
// defines anything else, or in another order, gets decoders of its own.

// gobStream is a gob.Decoder and the reader it reads from, which takes
// each stream in turn.
type gobStream struct {
	dec *gob.Decoder
	in  *bytes.Reader
}

// keptDecoders holds, by the type definitions of the streams they read
// (as sent), pools of the decoders that have read such a stream whole.
var keptDecoders struct {
	sync.RWMutex
	byDefs map[string]*sync.Pool
}

// keptFor returns the pool of decoders for the streams of definitions
// defs, made when new.
func keptFor(defs []byte) *sync.Pool {
	keptDecoders.RLock()
	p := keptDecoders.byDefs[string(defs)] // no copy made to look it up
	keptDecoders.RUnlock()
	if p != nil {
		return p
	}
	keptDecoders.Lock()
	defer keptDecoders.Unlock()
	if p = keptDecoders.byDefs[string(defs)]; p == nil {
		if keptDecoders.byDefs == nil {
			keptDecoders.byDefs = map[string]*sync.Pool{}
		}
		p = &sync.Pool{}
		keptDecoders.byDefs[string(defs)] = p
	}
	return p
}

// splitStream returns the type definitions of the gob stream b, and its
// values, each a sequence of gob's messages in the order they came; ok is
// false when b is not whole gob messages. The values alias b when no
// definition comes after one of them.
func splitStream(b []byte) (defs, values []byte, ok bool) {
	firstValue := -1     // where the first value starts
	interleaved := false // a definition comes after a value
	for at := 0; at < len(b); {
		next, id, whole := gobMessage(b, at)
		if !whole {
			return nil, nil, false
		}
		if id < 0 {
			defs = append(defs, b[at:next]...)
			interleaved = interleaved || firstValue >= 0
		} else if firstValue < 0 {
			firstValue = at
		}
		at = next
	}
	switch {
	case firstValue < 0:
		return defs, nil, true
	case !interleaved:
		return defs, b[firstValue:], true
	}
	for at := firstValue; at < len(b); {
		next, id, _ := gobMessage(b, at)
		if id >= 0 {
			values = append(values, b[at:next]...)
		}
		at = next
	}
	return defs, values, true
}

// gobMessage returns the end of the gob message that starts at b[at] (its
// length, then the length's bytes) and the type id that begins it:
// negative for a type's definition, else the type of the value that
// follows.
func gobMessage(b []byte, at int) (next int, id int64, ok bool) {
	n, size, ok := gobUint(b[at:])
	if !ok || n > uint64(len(b)-at-size) {
		return 0, 0, false
	}
	next = at + size + int(n)
	id, _, ok = gobInt(b[at+size : next])
	return next, id, ok
}

// gobUint reads gob's encoding of an unsigned integer at the start of b:
// a byte below 0x80 is the number; otherwise its negation is the count
// of big-endian bytes that follow.
func gobUint(b []byte) (v uint64, size int, ok bool) {
	if len(b) == 0 {
		return 0, 0, false
	}
	if b[0] < 0x80 {
		return uint64(b[0]), 1, true
	}
	n := -int(int8(b[0]))
	if n > 8 || n >= len(b) {
		return 0, 0, false
	}
	for _, c := range b[1 : 1+n] {
		v = v<<8 | uint64(c)
	}
	return v, 1 + n, true
}

// gobInt reads gob's encoding of a signed integer: an unsigned one whose
// lowest bit says the number is negative (its complement).
func gobInt(b []byte) (v int64, size int, ok bool) {
	u, size, ok := gobUint(b)
	if u&1 != 0 {
		return ^int64(u >> 1), size, ok
	}
	return int64(u >> 1), size, ok
}
