package tracefile

import (
	"bytes"
	"encoding/binary"
)

// recentFloats remembers the numbers strconv converted last, by their
// text. A trace repeats its times: a child's made_at is the moment of its
// parent's requests and of its next segment, a result's at is often the
// order's duration. Of the numbers the fast path (decimal.exact) leaves
// to strconv, 56% in the generated divide and conquer, 67% in the
// pipeline and 73% in the master and workers are found again here (the
// first 200,000 lines of each); strconv's readFloat and Eisel-Lemire
// took 7.5% of the samples of an ingest of the divide and conquer.
type recentFloats [64]recentFloat

type recentFloat struct {
	n    uint8 // the text's length, 0 for an empty slot
	text [maxRecent]byte
	f    float64
}

// maxRecent is the longest text remembered: a float64 written shortest
// by Go takes at most 24 bytes.
const maxRecent = 31

// slot returns the slot of tok, which holds tok's number if any does;
// nil when there is no memory (r is nil) or tok is too short to hash or
// too long to keep.
func (r *recentFloats) slot(tok []byte) *recentFloat {
	if r == nil || len(tok) < 8 || len(tok) > maxRecent {
		return nil
	}
	// The last 8 bytes, where the digits of two times differ.
	h := binary.LittleEndian.Uint64(tok[len(tok)-8:]) ^ uint64(len(tok))
	return &r[(h*0x9E3779B97F4A7C15)>>58]
}

// get returns the number of tok if it is remembered.
func (r *recentFloats) get(tok []byte) (float64, bool) {
	s := r.slot(tok)
	if s == nil || int(s.n) != len(tok) || !bytes.Equal(s.text[:s.n], tok) {
		return 0, false
	}
	return s.f, true
}

// put remembers f as the number of tok.
func (r *recentFloats) put(tok []byte, f float64) {
	if s := r.slot(tok); s != nil {
		s.n = uint8(copy(s.text[:], tok))
		s.f = f
	}
}
