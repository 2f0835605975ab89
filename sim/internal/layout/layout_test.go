package layout

import (
	"testing"

	"github.com/presage-dvm/presage/sim/internal/section"
)

func sec(l, u int64) section.Section { return section.Section{Lower: l, Upper: u, Step: 1} }

func ones(n int) []float64 {
	p := make([]float64, n)
	for i := range p {
		p[i] = 1
	}
	return p
}

// TestDataBlocks checks the weighted block rule against docs/model.md §5.3.
func TestDataBlocks(t *testing.T) {
	tests := []struct {
		n    int64
		p    int
		bm   []int64
		want [][2]int64 // {lo, hi}; lo > hi = empty
	}{
		{10, 3, nil, [][2]int64{{0, 2}, {3, 5}, {6, 9}}},
		{10, 3, []int64{1}, [][2]int64{{0, 3}, {4, 7}, {8, 9}}},
		{11, 3, nil, [][2]int64{{0, 2}, {3, 5}, {7, 10}}},
		{2, 4, nil, [][2]int64{{0, 1}, {0, 1}, {1, 1}, {1, 1}}},
		{8, 2, []int64{1}, [][2]int64{{0, 3}, {4, 7}}},
	}
	for _, tc := range tests {
		vm := NewRoot([]int{tc.p}, ones(tc.p))
		tm := &Template{Sizes: []int64{tc.n}, Bm: tc.bm}
		if err := tm.Distribute(vm, []int{1}); err != nil {
			t.Fatal(err)
		}
		ranges, err := tm.DataRanges(0)
		if err != nil {
			t.Fatal(err)
		}
		for c, w := range tc.want {
			lo, hi := ranges[c].Lo, ranges[c].Hi
			ok := lo <= hi
			if ok != (w[0] <= w[1]) || (ok && (lo != w[0] || hi != w[1])) {
				t.Errorf("N=%d P=%d bm=%v proc %d: [%d,%d] ok=%v, want %v", tc.n, tc.p, tc.bm, c, lo, hi, ok, w)
			}
		}
	}
}

func TestBlkdivNotDivisible(t *testing.T) {
	vm := NewRoot([]int{2}, ones(2))
	tm := &Template{Sizes: []int64{9}, Bm: []int64{2}}
	if err := tm.Distribute(vm, []int{1}); err != nil {
		t.Fatal(err)
	}
	if _, err := tm.DataRanges(0); err == nil {
		t.Error("9 elements in multiples of 2 must fail")
	}
}

// TestArrayAndLoop aligns an 8x8 array on a 2x2 grid and maps a loop 1..6
// on it: blocks and iteration blocks as in jac1d.
func TestArrayAndLoop(t *testing.T) {
	vm := NewRoot([]int{2, 2}, ones(4))
	tm := &Template{Sizes: []int64{8, 8}, Bm: []int64{1, 1}}
	if err := tm.Distribute(vm, []int{1, 2}); err != nil {
		t.Fatal(err)
	}
	a := &Array{Sizes: []int64{8, 8}, TS: 8}
	a.Align(tm, AxisRules([]int64{1, 2}, []int64{1, 1}, []int64{0, 0}, nil), nil)
	if a.Replicated() {
		t.Fatal("a distributed array is not replicated")
	}
	b, err := a.Loc(3)
	if err != nil {
		t.Fatal(err)
	}
	if !b.Equal(section.Block{sec(4, 7), sec(4, 7)}) {
		t.Errorf("Loc(3) = %v", b)
	}
	l := &Loop{Rank: 2}
	l.SetBounds([]int64{1, 1}, []int64{6, 6}, []int64{1, 1})
	if l.Size != 36 {
		t.Errorf("LoopSZ = %d, want 36", l.Size)
	}
	base := func(d int) int64 { return l.L[d] }
	rules := Compose(a, AxisRules([]int64{1, 2}, []int64{1, 1}, []int64{0, 0}, base))
	if err := l.Map(tm, rules, a); err != nil {
		t.Fatal(err)
	}
	// B = Const + Coeff·L = 1: template [0,3] maps to relative iterations
	// [0,2], shifted back by B to [1,3]; [4,7] to [3,5] → [4,6].
	want := []section.Block{{sec(1, 3), sec(1, 3)}, {sec(1, 3), sec(4, 6)}, {sec(4, 6), sec(1, 3)}, {sec(4, 6), sec(4, 6)}}
	for k, w := range want {
		if !l.Blocks[k].Equal(w) {
			t.Errorf("loop block %d = %v, want %v", k, l.Blocks[k], w)
		}
	}
}

func TestInvertedLoop(t *testing.T) {
	l := &Loop{Rank: 1}
	l.SetBounds([]int64{9}, []int64{0}, []int64{-3})
	// x = (9-0) rem -3 = 0 → L = Last = 0; H = 9, S = 3: 0,3,6,9.
	if l.L[0] != 0 || l.H[0] != 9 || l.S[0] != 3 || !l.Inverted[0] || l.Size != 4 {
		t.Errorf("inverted loop: L=%v H=%v S=%v size %d", l.L, l.H, l.S, l.Size)
	}
}

func TestWeights(t *testing.T) {
	vm := NewRoot([]int{2}, []float64{1, 4})
	tm := &Template{Sizes: []int64{10}}
	tm.SetWeights(vm, nil)
	// (pow/min)^(1/r) per coordinate: 1 and 4.
	if tm.Weights[0] != 1 || tm.Weights[1] != 4 {
		t.Errorf("weights = %v, want [1 4]", tm.Weights)
	}
	tm2 := &Template{Sizes: []int64{10}}
	tm2.SetWeights(NewRoot([]int{2}, ones(2)), [][]float64{{6, 3}})
	if tm2.Weights[0] != 2 || tm2.Weights[1] != 1 {
		t.Errorf("load weights = %v, want [2 1]", tm2.Weights)
	}
}
