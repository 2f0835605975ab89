package engine

import (
	"math/rand/v2"
	"testing"
)

// TestHandlesAsMap runs random sets, lookups and removals on a handles
// table and on a Go map, over key ranges that keep the table in its slice
// and that make it move to its map, and requires the same answers.
func TestHandlesAsMap(t *testing.T) {
	for _, keys := range []uint64{4, fewHandles, 3 * fewHandles} {
		rng := rand.New(rand.NewPCG(1, keys))
		var tab handles[uint64, int]
		want := map[uint64]int{}
		for i := range 20000 {
			ref := rng.Uint64N(keys)
			switch rng.IntN(3) {
			case 0:
				tab.set(ref, i)
				want[ref] = i
			case 1:
				tab.remove(ref)
				delete(want, ref)
			}
			for r := range keys {
				v, ok := tab.get(r)
				w, wok := want[r]
				if v != w || ok != wok || tab.has(r) != wok {
					t.Fatalf("keys %d, step %d: get(%d) = %d, %v; want %d, %v", keys, i, r, v, ok, w, wok)
				}
			}
		}
		if spilled := tab.many != nil; spilled != (keys > fewHandles) {
			t.Errorf("keys %d: moved to a map: %v", keys, spilled)
		}
	}
}

// TestHandlesRemoveForgetsValue: a removed entry's value is not held by
// the slice past its length.
func TestHandlesRemoveForgetsValue(t *testing.T) {
	var tab handles[uint64, *int]
	a, b := new(int), new(int)
	tab.set(1, a)
	tab.set(2, b)
	tab.remove(1)
	if got, ok := tab.get(2); !ok || got != b {
		t.Fatalf("get(2) = %p, %v after removing 1; want %p", got, ok, b)
	}
	if held := tab.vals[:cap(tab.vals)][1]; held != nil {
		t.Errorf("removed value still held: %p", held)
	}
}

// TestRecentKeepsLastEntries: a recent list answers the last fewRecent
// keys put, forgets the older ones, and nothing after reset.
func TestRecentKeepsLastEntries(t *testing.T) {
	var r recent[int, int]
	const n = 3 * fewRecent
	for k := range n {
		r.put(k, 10*k)
		for j := range n {
			v, ok := r.get(j)
			held := j <= k && j > k-fewRecent
			if ok != held || (held && v != 10*j) {
				t.Fatalf("after put(%d): get(%d) = %d, %v; want held %v", k, j, v, ok, held)
			}
		}
	}
	r.reset()
	for j := range n {
		if _, ok := r.get(j); ok {
			t.Fatalf("get(%d) answered after reset", j)
		}
	}
}
