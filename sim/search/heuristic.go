package search

import (
	"context"
	"fmt"
	"slices"
)

// heuristic is mode 1 (docs/model.md §1.7): rounds over the configurations of
// the top mark, each evaluating the ones of one processor count and
// pruning the list by classes of grids and by processor count.
func (s *state) heuristic(ctx context.Context, kept []Candidate, ms [MaxRank]int, rank int) error {
	list := sortByMark(kept)
	var cls classes
	isBest, was := false, false
	last := 0
	for len(list) > 0 {
		best := pad(s.best, rank)
		top := list[0].Mark
		group := list[:topPrefix(list)]
		lo, hi := bounds(group, best, ms, rank)
		vec := distinctCounts(group)
		s.log = append(s.log, fmt.Sprintf("Search %d (%d - %d)   mark=%g%%", len(list),
			slices.Min(vec), slices.Max(vec), float64(top)/100))
		k := vec[(len(vec)-1)/2]
		switch {
		case isBest && hasCount(group, lo):
			k = lo
		case was && !isBest && hasCount(group, hi):
			k = hi
		}
		var batch [][]int
		for _, c := range group {
			if c.N == k {
				batch = append(batch, c.Grid)
			}
		}
		es, err := s.evaluate(ctx, batch)
		if err != nil {
			return err
		}
		for i, g := range batch {
			cls.file(pad(g, rank), es[i])
		}
		list = cls.prune(list, s.bestE, rank)
		best = pad(s.best, rank)
		j := procs(best)
		was, isBest = isBest, j == k
		list = pruneCounts(list, best, j, k, last, top, isBest, was)
		last = j
	}
	return nil
}

// sortByMark orders by mark descending, then processor count ascending, by
// the original's selection sort: position i receives the first-occurring
// best of the rest, swapped with what stood there.
func sortByMark(kept []Candidate) []Candidate {
	l := slices.Clone(kept)
	for i := range l {
		b := i
		for j := i + 1; j < len(l); j++ {
			if l[j].Mark > l[b].Mark || l[j].Mark == l[b].Mark && l[j].N < l[b].N {
				b = j
			}
		}
		l[i], l[b] = l[b], l[i]
	}
	return l
}

// topPrefix is the length of the leading run of the top mark.
func topPrefix(l []Candidate) int {
	n := 1
	for n < len(l) && l[n].Mark == l[0].Mark {
		n++
	}
	return n
}

// bounds returns LO and HI: the products over the dimensions of the
// nearest coordinates of the group below (from 1) and above (from
// MinSizesOfAM) the best grid's.
func bounds(group []Candidate, best []int, ms [MaxRank]int, rank int) (lo, hi int) {
	lo, hi = 1, 1
	for j := range rank {
		l, h := 1, ms[j]
		for _, c := range group {
			x := c.Grid[j]
			if x < best[j] && x > l {
				l = x
			}
			if x > best[j] && x < h {
				h = x
			}
		}
		lo *= l
		hi *= h
	}
	return lo, hi
}

func distinctCounts(group []Candidate) []int {
	var vec []int
	for _, c := range group {
		if !slices.Contains(vec, c.N) {
			vec = append(vec, c.N)
		}
	}
	return vec
}

func hasCount(group []Candidate, n int) bool {
	return slices.ContainsFunc(group, func(c Candidate) bool { return c.N == n })
}

// pruneCounts is the count pruning of a round (docs/model.md §1.7 step e).
func pruneCounts(list []Candidate, best []int, j, k, last, top int, isBest, was bool) []Candidate {
	m := 0
	for i := range best {
		if best[i] < best[m] {
			m = i
		}
	}
	others := j / best[m]
	t := 0
	if j < k || isBest && was && j < last {
		t = max((best[m]+1)*others, k, last)
	}
	if j > k || isBest && was && j > last {
		t = min((best[m]-1)*others, k, last)
	}
	return slices.DeleteFunc(list, func(c Candidate) bool {
		n := c.N
		return j < k && n > t || j > k && n < t || n == k && c.Mark == top ||
			isBest && was && j > last && n < t || isBest && was && j < last && n > t
	})
}

// pad extends or cuts a grid to rank dimensions (missing ones are 1).
func pad(g []int, rank int) []int {
	out := make([]int, rank)
	for i := range out {
		out[i] = 1
		if i < len(g) {
			out[i] = g[i]
		}
	}
	return out
}
