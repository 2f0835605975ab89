package engine

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/presage-dvm/presage/sim/section"
)

// TestSharers compares sharers with counting equal blocks pair by pair,
// over blocks drawn from a few bounds, with nil and empty ones.
func TestSharers(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for round := range 200 {
		blocks := make([]section.Block, rng.IntN(40))
		for k := range blocks {
			switch rng.IntN(6) {
			case 0: // nil: no iterations
			case 1:
				blocks[k] = section.Block{}
			default:
				b := make(section.Block, 1+rng.IntN(2))
				for d := range b {
					lo := int64(rng.IntN(3))
					b[d] = section.Section{Lower: lo, Upper: lo + int64(rng.IntN(2)), Step: 1}
				}
				blocks[k] = b
			}
		}
		got := sharers(blocks)
		for k, b := range blocks {
			want := 0
			for _, c := range blocks {
				if (b == nil) == (c == nil) && slices.Equal(b, c) {
					want++
				}
			}
			if got[k] != want {
				t.Fatalf("round %d: block %d (%v) shared by %d blocks, want %d", round, k, b, got[k], want)
			}
		}
	}
}
