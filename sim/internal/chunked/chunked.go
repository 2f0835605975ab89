// Package chunked holds arrays that grow by chunks that never move, for
// the readers, analyses and simulators that keep a value per order of a
// trace of millions, and arenas on them that hand out their values by
// number and reuse the numbers given back.
//
// A slice grown by append copies itself into fresh memory each time it
// doubles, and each pointer into it goes stale; an Array of chunks copies
// nothing, so a *T stays valid for as long as the Array lives. Its chunks
// double (1,024 values, then 1,024, 2,048, …), which keeps a small trace
// small and a large one in few, large chunks. They stop doubling at
// 2^LastBits values, so that an Array holds at most one chunk more than
// it needs: the collector counts a chunk whole, touched or not, and a
// sweep's simulations, which adopt each other's chunks, touched them
// whole.
package chunked

import "math/bits"

// FirstBits sizes the first chunk: 2^FirstBits values. Chunk 0 holds
// numbers [0, 1024), and chunk c ≥ 1 numbers [1024·2^(c-1), 1024·2^c)
// up to 2^LastBits; from there every chunk holds 2^LastBits numbers. No
// chunk boundary falls inside a run of at most 1,024 numbers aligned on
// its size.
const (
	FirstBits = 10
	LastBits  = 18
)

// doubling is the number of chunks that double: those below 2^LastBits.
const doubling = LastBits - FirstBits + 1

// Array is an array of T by number, from 0, that grows without moving
// what it holds. The zero Array is empty; Grow makes room.
type Array[T any] [][]T

// chunkOf returns the chunk of number i and i's place in it.
func chunkOf(i int32) (c int, off int32) {
	if i >= 1<<LastBits {
		return doubling - 1 + int(i>>LastBits), i & (1<<LastBits - 1)
	}
	c = bits.Len32(uint32(i) >> FirstBits)
	if c == 0 {
		return 0, i
	}
	return c, i - 1<<(FirstBits+c-1)
}

// chunkLen returns the number of values of chunk c.
func chunkLen(c int) int {
	switch {
	case c == 0:
		return 1 << FirstBits
	case c < doubling:
		return 1 << (FirstBits + c - 1)
	default:
		return 1 << LastBits
	}
}

// At returns the value of number i, which Grow made room for.
func (a Array[T]) At(i int32) *T {
	c, off := chunkOf(i)
	return &a[c][off]
}

// Grow makes room for number i (and every number below it).
func (a *Array[T]) Grow(i int32) {
	for c, _ := chunkOf(i); c >= len(*a); {
		*a = append(*a, make([]T, chunkLen(len(*a))))
	}
}
