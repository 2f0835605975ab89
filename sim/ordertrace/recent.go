package ordertrace

import (
	"bytes"
	"encoding/binary"
)

// recentFloats remembers the numbers strconv converted last, by their
// text. A trace repeats its times: a child's made_at is the moment of its
// parent's requests and of its next segment, a result's at is often the
// order's duration. Of the numbers the fast path of exactDecimal leaves
// to strconv, 56% in the generated divide and conquer, 67% in the
// pipeline and 73% in the master and workers are among the last sixteen
// such numbers; strconv took a tenth of ingest's CPU time.
type recentFloats [64]recentFloat

type recentFloat struct {
	n    uint8 // the text's length, 0 for an empty slot
	text [maxRecent]byte
	f    float64
}

// maxRecent is the longest text remembered: a float64 written shortest
// by Go takes at most 24 bytes.
const maxRecent = 31

// slot returns the slot of tok, which holds tok's number if any does.
// It hashes the last 8 bytes, where the digits of two times differ.
func (r *recentFloats) slot(tok []byte) *recentFloat {
	h := binary.LittleEndian.Uint64(tok[len(tok)-8:]) ^ uint64(len(tok))
	return &r[(h*0x9E3779B97F4A7C15)>>58]
}

// get returns the number of tok if it is remembered.
func (r *recentFloats) get(tok []byte) (float64, bool) {
	if len(tok) < 8 || len(tok) > maxRecent {
		return 0, false
	}
	s := r.slot(tok)
	if int(s.n) != len(tok) || !bytes.Equal(s.text[:s.n], tok) {
		return 0, false
	}
	return s.f, true
}

// put remembers f as the number of tok.
func (r *recentFloats) put(tok []byte, f float64) {
	if len(tok) < 8 || len(tok) > maxRecent {
		return
	}
	s := r.slot(tok)
	s.n = uint8(copy(s.text[:], tok))
	s.f = f
}
