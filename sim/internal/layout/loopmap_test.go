package layout

import (
	"math/rand/v2"
	"testing"

	"github.com/presage-dvm/presage/sim/internal/section"
)

// blockOf is a processor's iteration block computed the direct way, one
// processor at a time (docs/model.md §5.7): the reference of Loop.Map,
// which puts blocks together from the effects of each coordinate.
func blockOf(l *Loop, k int) section.Block {
	t := l.Tmpl
	b := make(section.Block, l.Rank)
	for d := range b {
		b[d] = section.Section{Lower: l.L[d], Upper: l.H[d], Step: 1}
	}
	for i, ax := range t.Axis {
		if ax == 0 {
			continue
		}
		ranges, err := t.LoopRanges(i)
		if err != nil {
			panic(err)
		}
		rg := ranges[t.VM.Coord(k, i)]
		if rg.Lo > rg.Hi {
			return nil
		}
		if ax-1 >= len(l.Rules) {
			continue
		}
		r := l.Rules[ax-1]
		switch r.Kind {
		case Normal:
			if r.Dim >= len(b) {
				continue
			}
			l2, h2, ok := section.Transform(rg.Lo, rg.Hi, r.A, r.B, l.H[r.Dim]-l.L[r.Dim]+1)
			if !ok {
				return nil
			}
			b[r.Dim] = section.Section{Lower: l2 + r.B, Upper: h2 + r.B, Step: 1}
		case BoundRepl:
			if _, _, ok := section.Transform(rg.Lo, rg.Hi, r.A, r.B, r.Bound); !ok {
				return nil
			}
		case Constant:
			if r.C < rg.Lo || r.C > rg.Hi {
				return nil
			}
		}
	}
	for d := range b {
		s := max(l.S[d], 1)
		lo, hi := s*ceilDiv(b[d].Lower, s), s*(b[d].Upper/s)
		if lo > hi || lo < 0 {
			return nil
		}
		b[d] = section.Section{Lower: lo, Upper: hi, Step: s}
	}
	return b
}

// TestLoopMapMatchesBlockOf maps random loops on random distributions and
// compares every block, and the count of processors sharing it, with
// the direct computation.
func TestLoopMapMatchesBlockOf(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for round := range 500 {
		grid := make([]int, 1+rng.IntN(3))
		for i := range grid {
			grid[i] = 1 + rng.IntN(5)
		}
		vm := NewRoot(grid, ones(NewRoot(grid, nil).P()))
		tm := &Template{Sizes: make([]int64, 1+rng.IntN(3))}
		for d := range tm.Sizes {
			tm.Sizes[d] = 1 + int64(rng.IntN(20))
		}
		axis := make([]int, len(grid))
		for i := range axis {
			axis[i] = rng.IntN(len(tm.Sizes) + 1) // 0: replicated
		}
		if err := tm.Distribute(vm, axis); err != nil {
			t.Fatal(err)
		}
		l := &Loop{Rank: rng.IntN(4)}
		init, last, step := make([]int64, l.Rank), make([]int64, l.Rank), make([]int64, l.Rank)
		for d := range l.Rank {
			init[d], last[d] = int64(rng.IntN(8)), int64(rng.IntN(20))
			step[d] = []int64{1, 1, 2, 3, -1, -2}[rng.IntN(6)]
			if step[d] < 0 {
				init[d], last[d] = last[d], init[d]
			}
		}
		l.SetBounds(init, last, step)
		rules := make([]Rule, rng.IntN(len(tm.Sizes)+1))
		for i := range rules {
			rules[i] = Rule{Kind: RuleKind(rng.IntN(4)), Dim: rng.IntN(l.Rank + 1),
				A: []int64{1, 1, 2, -1}[rng.IntN(4)], B: int64(rng.IntN(5)) - 2,
				C: int64(rng.IntN(20)), Bound: 1 + int64(rng.IntN(10))}
		}
		if err := l.Map(tm, rules, nil); err != nil {
			t.Fatal(err)
		}
		for k := range vm.P() {
			want := blockOf(l, k)
			if got := l.Blocks[k]; (got == nil) != (want == nil) || !got.Equal(want) {
				t.Fatalf("round %d: processor %d has block %v, want %v", round, k, got, want)
			}
			sharers := 0
			for j := range vm.P() {
				if b := blockOf(l, j); (b == nil) == (want == nil) && b.Equal(want) {
					sharers++
				}
			}
			if l.Sharers[k] != sharers {
				t.Fatalf("round %d: processor %d's block %v is shared by %d, want %d", round, k, want, l.Sharers[k], sharers)
			}
		}
	}
}

func TestCountEqual(t *testing.T) {
	keys := []int64{-1, 5, 5, 0, -1, 5, 7}
	want := []int{2, 3, 3, 1, 2, 3, 1}
	for _, span := range []int64{8, 1 << 40} { // counted in an array, then in a map
		got := countEqual(keys, span)
		for i := range want {
			if got[i] != want[i] {
				t.Errorf("span %d: counts %v, want %v", span, got, want)
				break
			}
		}
	}
}
