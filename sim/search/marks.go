package search

import (
	"math"

	"github.com/presage-dvm/presage/sim/sweep"
)

// Candidate is a grid of the original's search with its heuristic mark.
type Candidate struct {
	Grid []int
	N    int // processors
	Mark int // 0..10000; 0 = "bad"
}

// Mark is the original's heuristic mark of a grid (CheckEuristik, docs/model.md
// §1.7): 0 if a dimension exceeds its MinSizesOfAM, else 10000 times the
// smallest fill ratio of the last block over the dimensions, truncated.
func Mark(grid []int, ms [MaxRank]int) int {
	best := float32(math.MaxFloat32)
	for i, g := range grid {
		a := 0
		if i < MaxRank {
			a = ms[i]
		}
		if g > a {
			return 0
		}
		best = min(best, fill(g, a))
	}
	return int(10000 * best)
}

// fill is the fill ratio of the last block when a elements are cut in g
// blocks of ceil(a/g), in single precision as the original computes it;
// 0 when the blocks overshoot (a processor without elements).
func fill(g, a int) float32 {
	q := int(math.Ceil(float64(a) / float64(g)))
	o := a % q
	if o == 0 {
		o = q
	}
	if q*(g-1)+o > a {
		return 0
	}
	return float32(o) / float32(q)
}

// Candidates returns the original's candidate grids for a machine of
// numproc processors in generation order (ascending processor count, then
// the ordered factorisations), keeping the marked ones (all of them when
// all is set), with the number of grids generated and of marked ones.
func Candidates(numproc int, ms [MaxRank]int, all bool) (kept []Candidate, variants, notBad int) {
	rank := Rank(ms)
	if rank == 0 {
		return nil, 0, 0
	}
	for n := 1; n <= numproc; n++ {
		for _, g := range sweep.Factorisations(n, rank) {
			variants++
			c := Candidate{Grid: g, N: n, Mark: Mark(g, ms)}
			if c.Mark > 0 {
				notBad++
			}
			if c.Mark > 0 || all {
				kept = append(kept, c)
			}
		}
	}
	return kept, variants, notBad
}
