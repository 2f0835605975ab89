package chunked

import (
	"math/rand/v2"
	"testing"
)

type value struct{ a, b int64 }

func TestArenaReusesOnlyReleased(t *testing.T) {
	var a Arena[value]
	held := map[int32]bool{}
	rng := rand.New(rand.NewPCG(1, 2))
	for step := range 20000 {
		if len(held) > 0 && rng.IntN(3) == 0 {
			for i := range held {
				a.Release(i)
				delete(held, i)
				break
			}
			continue
		}
		i, v := a.Alloc()
		switch {
		case i == 0:
			t.Fatalf("step %d: number 0, which means none, handed out", step)
		case held[i]:
			t.Fatalf("step %d: number %d handed out while held", step, i)
		case *v != value{}:
			t.Fatalf("step %d: number %d handed out dirty: %+v", step, i, *v)
		}
		held[i] = true
		v.a, v.b = int64(step+1), -int64(step+1) // dirty it whole, as a user would
	}
	if a.Held() != len(held) {
		t.Errorf("arena holds %d, want %d", a.Held(), len(held))
	}
	given := 0
	for i := range a.Given() {
		given++
		if held[i] {
			t.Errorf("number %d given back while held", i)
		}
	}
	if given+a.Held() != int(a.next)-1 {
		t.Errorf("%d given back and %d held of %d handed out", given, a.Held(), a.next-1)
	}
}

// TestStackIsLastInFirstOut pushes and pops across chunks: an arena
// hands out the number given back last, as the simulation's numbering
// (and so its ties) always had it.
func TestStackIsLastInFirstOut(t *testing.T) {
	var s Stack
	const n = 3<<FirstBits + 5 // over three chunks
	// The second round reuses the chunks.
	for round := range 2 {
		for i := int32(1); i <= n; i++ {
			s.Push(i)
		}
		if s.Len() != n {
			t.Fatalf("round %d: len %d after %d pushes", round, s.Len(), n)
		}
		want := int32(1)
		for i := range s.All() {
			if i != want {
				t.Fatalf("round %d: All yields %d, want %d", round, i, want)
			}
			want++
		}
		for want := int32(n); want >= 1; want-- {
			if got := s.Pop(); got != want {
				t.Fatalf("round %d: pop %d, want %d", round, got, want)
			}
		}
		if got := s.Pop(); got != 0 || s.Len() != 0 {
			t.Fatalf("round %d: empty stack pops %d, len %d", round, got, s.Len())
		}
	}
	if len(s.nums) != 3 {
		t.Errorf("%d chunks for %d numbers at most, want 3: chunks are not reused", len(s.nums), n)
	}
}
