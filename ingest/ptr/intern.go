package ptr

import (
	"encoding/binary"
	"math/bits"

	"github.com/presage-dvm/presage/sim/trace"
)

// interner returns one string for all equal byte sequences, so that the
// millions of repetitions of a trace's few hundred function names, file
// names and parameter texts share their bytes.
type interner struct {
	strings map[string]string
	limit   int // strings stops growing at limit entries
	// recent holds the last two strings looked up in each slot
	// (recentSlot): comparing with them is cheaper than hashing the bytes
	// for the map, and one of them is nearly always the right one.
	recent [recentSlots][2]internEntry
}

// internEntry is an interned string and, for a parameter text, its
// pattern, worked out once.
type internEntry struct {
	s         string
	pattern   string
	patterned bool // pattern is trace.PatternOf(s)
}

const (
	recentBits  = 8
	recentSlots = 1 << recentBits
)

func newInterner(limit int) *interner {
	return &interner{strings: make(map[string]string), limit: limit}
}

// get returns the string of b, interned while the limit allows.
func (in *interner) get(b []byte) string { return in.entry(b).s }

// entry returns the entry of the string of b, valid until the next call.
func (in *interner) entry(b []byte) *internEntry {
	set := &in.recent[recentSlot(b)]
	if set[0].s == string(b) {
		return &set[0]
	}
	if set[1].s == string(b) {
		return &set[1]
	}
	s, ok := in.strings[string(b)]
	if !ok {
		s = string(b)
		if len(in.strings) < in.limit {
			in.strings[s] = s
		}
	}
	set[1], set[0] = set[0], internEntry{s: s}
	return &set[0]
}

// patternOf returns trace.PatternOf(e.s).
func (e *internEntry) patternOf() string {
	if !e.patterned {
		e.pattern, e.patterned = trace.PatternOf(e.s), true
	}
	return e.pattern
}

// recentSlot is a hash of b cheaper than the map's: of its length and
// of eight bytes at its start, middle and end.
func recentSlot(b []byte) int {
	n := len(b)
	h := uint64(n)
	if n >= 8 {
		h ^= binary.LittleEndian.Uint64(b) ^
			bits.RotateLeft64(binary.LittleEndian.Uint64(b[(n-8)/2:]), 21) ^
			bits.RotateLeft64(binary.LittleEndian.Uint64(b[n-8:]), 42)
	} else {
		for _, c := range b {
			h = h<<8 | uint64(c)
		}
	}
	return int(h * 0x9e3779b97f4a7c15 >> (64 - recentBits))
}
