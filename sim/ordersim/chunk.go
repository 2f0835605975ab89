package ordersim

import (
	"math/bits"

	"github.com/presage-dvm/presage/sim/hugepage"
)

// firstBits sizes the first chunk of a chunks: 1024 values.
const firstBits = 10

// chunks is an array of T by number that grows without moving what it
// holds, so a *T stays valid: chunk 0 holds numbers [0, 1024), and chunk
// c ≥ 1 numbers [1024·2^(c-1), 1024·2^c). Doubling keeps a small
// simulation small and a large one in few, large chunks, which get huge
// pages (package hugepage): a million-order simulation touches a few hundred MB
// of fresh memory, and taking it 4 KB at a time cost more than half of
// its CPU time in page faults (docs/orders-sim.md, "Memory").
type chunks[T any] [][]T

// chunkOf returns the chunk of number i and i's place in it.
func chunkOf(i int32) (c int, off int32) {
	c = bits.Len32(uint32(i) >> firstBits)
	if c == 0 {
		return 0, i
	}
	return c, i - 1<<(firstBits+c-1)
}

func (s chunks[T]) at(i int32) *T {
	c, off := chunkOf(i)
	return &s[c][off]
}

// grow makes room for number i.
func (s *chunks[T]) grow(i int32) {
	for c, _ := chunkOf(i); c >= len(*s); {
		n := 1 << firstBits
		if k := len(*s); k > 0 {
			n = 1 << (firstBits + k - 1)
		}
		chunk := make([]T, n)
		hugepage.Slice(chunk)
		*s = append(*s, chunk)
	}
}
