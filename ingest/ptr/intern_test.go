package ptr

import (
	"fmt"
	"testing"
	"unsafe"

	"github.com/presage-dvm/presage/sim/trace"
)

// TestInterner checks that the interner returns the string of its bytes,
// the same one for equal bytes while under its limit, and the pattern of
// each text, whatever the recent slots hold.
func TestInterner(t *testing.T) {
	const limit = 50
	in := newInterner(limit)
	texts := []string{"", "a", "PatternRef=106a618 (AMView);", "X=1 (DisArray);\nY=2 (AMView);"}
	for i := range 400 { // more than the slots and the limit: collisions and misses
		texts = append(texts, fmt.Sprintf("LoopRef=%x; (AMView)%d", i*7919, i%3))
	}
	first := map[string]string{}
	for round := range 3 {
		for _, want := range texts {
			e := in.entry([]byte(want))
			if e.s != want {
				t.Fatalf("entry(%q).s = %q", want, e.s)
			}
			if p := e.patternOf(); p != trace.PatternOf(want) {
				t.Fatalf("patternOf(%q) = %q, want %q", want, p, trace.PatternOf(want))
			}
			if round == 0 {
				first[want] = e.s
			} else if _, kept := in.strings[want]; kept && unsafe.StringData(e.s) != unsafe.StringData(first[want]) {
				t.Fatalf("%q interned twice", want)
			}
		}
	}
	if len(in.strings) != limit {
		t.Errorf("%d strings interned, want the limit %d", len(in.strings), limit)
	}
}
