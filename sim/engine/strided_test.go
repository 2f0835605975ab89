package engine

import (
	"testing"

	"github.com/presage-dvm/presage/sim/internal/section"
)

// TestCutsAlong: a pipeline cuts a loop dimension into portions when the
// processors split the loop along another one and each holds the whole of
// it; not when they split it, nor when nothing is split.
func TestCutsAlong(t *testing.T) {
	block := func(lo0, hi0, lo1, hi1 int64) section.Block {
		return section.Block{{Lower: lo0, Upper: hi0, Step: 1}, {Lower: lo1, Upper: hi1, Step: 1}}
	}
	split0 := []section.Block{block(1, 4, 1, 8), block(5, 8, 1, 8)}
	grid2x2 := []section.Block{block(1, 4, 1, 4), block(1, 4, 5, 8), block(5, 8, 1, 4), block(5, 8, 5, 8)}
	for _, c := range []struct {
		name   string
		blocks []section.Block
		d      int
		want   bool
	}{
		{"split along 0, cut along 1", split0, 1, true},
		{"split along 0, not cut along 0", split0, 0, false},
		{"an empty block aside", append([]section.Block{nil}, split0...), 1, true},
		{"split along both", grid2x2, 1, false},
		{"one processor", split0[:1], 1, false},
		{"replicated", []section.Block{split0[0], split0[0]}, 1, false},
		{"beyond the rank", split0, 2, false},
	} {
		if got := cutsAlong(c.blocks, c.d); got != c.want {
			t.Errorf("%s: cutsAlong(d=%d) = %v, want %v", c.name, c.d, got, c.want)
		}
	}
}

// TestContiguousLoopDim: the loop dimension mapped to the pattern array's
// last run-time dimension, the contiguous one; none when that dimension
// is replicated or constant.
func TestContiguousLoopDim(t *testing.T) {
	for _, c := range []struct {
		axis, coeff []int64
		want        int
	}{
		{[]int64{1, 2}, []int64{1, 1}, 1},
		{[]int64{2, 1}, []int64{1, 1}, 0},
		{[]int64{1, -1}, []int64{1, 0}, -1},
		{[]int64{1, 2}, []int64{1, 0}, -1},
		{nil, nil, -1},
	} {
		if got := contiguousLoopDim(c.axis, c.coeff); got != c.want {
			t.Errorf("contiguousLoopDim(%v, %v) = %d, want %d", c.axis, c.coeff, got, c.want)
		}
	}
}
