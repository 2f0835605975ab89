package idtable

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestTableActsAsAMap plays random sets and deletes, near ids and wild
// ones, on a Table and on a map, and compares them after each.
func TestTableActsAsAMap(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var tab Table[int32]
	want := map[int64]int32{}
	ids := func() int64 {
		switch rng.IntN(10) {
		case 0:
			return -rng.Int64N(1 << 40) // negative: kept apart
		case 1:
			return maxPages<<pageBits + rng.Int64N(1<<50) // beyond the pages
		default:
			return rng.Int64N(3 << pageBits)
		}
	}
	for i := range 50_000 {
		id := ids()
		v := int32(rng.IntN(4)) // 0 deletes
		tab.Set(id, v)
		if v == 0 {
			delete(want, id)
		} else {
			want[id] = v
		}
		if got := tab.Get(id); got != want[id] {
			t.Fatalf("step %d: Get(%d) = %d, want %d", i, id, got, want[id])
		}
		if tab.Len() != len(want) {
			t.Fatalf("step %d: Len() = %d, want %d", i, tab.Len(), len(want))
		}
	}
	seen := map[int64]int32{}
	var paged []int64
	tab.Each(func(id int64, v int32) {
		seen[id] = v
		if id >= 0 && id>>pageBits < maxPages {
			paged = append(paged, id)
		}
	})
	if len(seen) != len(want) {
		t.Fatalf("Each gave %d ids, want %d", len(seen), len(want))
	}
	for id, v := range want {
		if seen[id] != v {
			t.Fatalf("Each gave %d for id %d, want %d", seen[id], id, v)
		}
	}
	if !slices.IsSorted(paged) {
		t.Error("Each did not give the paged ids in increasing order")
	}
}

// TestEmptyPagesAreFreed checks that memory follows the ids held.
func TestEmptyPagesAreFreed(t *testing.T) {
	var tab Table[int64]
	for id := int64(1); id <= 3<<pageBits; id++ {
		tab.Set(id, id)
	}
	for id := int64(1); id <= 2<<pageBits; id++ {
		tab.Delete(id)
	}
	held := 0
	for _, pg := range tab.pages {
		if pg != nil {
			held++
		}
	}
	if held != 2 { // page 2, and page 3 for id 3<<pageBits
		t.Errorf("%d pages held after deleting the first two pages' ids, want 2", held)
	}
	tab.Delete(1 << 45) // absent, beyond the pages: nothing to do
	tab.Set(5<<pageBits, 0)
	if len(tab.pages) != 4 {
		t.Errorf("setting nothing grew the pages to %d", len(tab.pages))
	}
}

func BenchmarkTable(b *testing.B) {
	var tab Table[int32]
	for i := 0; b.Loop(); i++ {
		id := int64(i)
		tab.Set(id, 1)
		if i >= 1000 {
			tab.Delete(id - 1000)
		}
	}
}
