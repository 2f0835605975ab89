package chunked

import "testing"

// Numbers fall in the chunks the doc gives, and values keep their place
// as the array grows.
func TestArrayGrowsWithoutMoving(t *testing.T) {
	for _, tc := range []struct {
		i       int32
		c       int
		off     int32
		nChunks int // after Grow(i)
	}{
		{0, 0, 0, 1},
		{1023, 0, 1023, 1},
		{1024, 1, 0, 2},
		{2047, 1, 1023, 2},
		{2048, 2, 0, 3},
		{4095, 2, 2047, 3},
		{4096, 3, 0, 4},
		{1<<18 - 1, 8, 1<<17 - 1, 9},
		{1 << 18, 9, 0, 10},
		{1<<19 - 1, 9, 1<<18 - 1, 10},
		{1 << 19, 10, 0, 11},
		{1<<20 + 5, 12, 5, 13},
	} {
		if c, off := chunkOf(tc.i); c != tc.c || off != tc.off {
			t.Errorf("chunkOf(%d) = %d, %d, want %d, %d", tc.i, c, off, tc.c, tc.off)
		}
		var a Array[int32]
		a.Grow(tc.i)
		if len(a) != tc.nChunks {
			t.Errorf("Grow(%d) made %d chunks, want %d", tc.i, len(a), tc.nChunks)
		}
	}
	var a Array[int32]
	a.Grow(0)
	first := a.At(0)
	const n = 5000
	for i := int32(0); i < n; i++ {
		a.Grow(i)
		*a.At(i) = i * 3
	}
	if a.At(0) != first {
		t.Error("value 0 moved as the array grew")
	}
	for i := int32(0); i < n; i++ {
		if *a.At(i) != i*3 {
			t.Fatalf("value %d is %d, want %d", i, *a.At(i), i*3)
		}
	}
}
