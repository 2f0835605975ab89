package sweep

// Factorisations returns every ordered factorisation of n into exactly rank
// positive factors, in the order of the original's candidate generation
// (docs/model.md §1.7): the first factor runs over the divisors of n in
// ascending order, the rest recursively.
func Factorisations(n, rank int) [][]int {
	if n < 1 || rank < 1 {
		return nil
	}
	var out [][]int
	prefix := make([]int, 0, rank)
	var rec func(n, rank int)
	rec = func(n, rank int) {
		if rank == 1 {
			g := append(append(make([]int, 0, len(prefix)+1), prefix...), n)
			out = append(out, g)
			return
		}
		for d := 1; d <= n; d++ {
			if n%d != 0 {
				continue
			}
			prefix = append(prefix, d)
			rec(n/d, rank-1)
			prefix = prefix[:len(prefix)-1]
		}
	}
	rec(n, rank)
	return out
}

// GridsInRange returns every grid of rank 1..maxRank whose processor count
// is in lo..hi: for each count in ascending order, the factorisations of
// rank 1, then 2, ... (maxRank is clamped to 1..4).
func GridsInRange(lo, hi, maxRank int) [][]int {
	var counts []int
	for n := max(lo, 1); n <= hi; n++ {
		counts = append(counts, n)
	}
	return GridsOf(counts, maxRank)
}

// GridsOf returns every grid of rank 1..maxRank of each processor count,
// in the counts' order: the factorisations of rank 1, then 2, ... (maxRank
// is clamped to 1..4). A count listed twice gives its grids once.
func GridsOf(counts []int, maxRank int) [][]int {
	maxRank = min(max(maxRank, 1), 4)
	var out [][]int
	seen := map[int]bool{}
	for _, n := range counts {
		if n < 1 || seen[n] {
			continue
		}
		seen[n] = true
		for r := 1; r <= maxRank; r++ {
			out = append(out, Factorisations(n, r)...)
		}
	}
	return out
}

// Distinct keeps the grids without trailing dimensions of size 1: a grid
// such as 2x1 or 2x2x1 distributes exactly as 2 or 2x2 does, so its
// results are those of the shorter grid (checked on every real trace:
// docs/sweeps.md, "Equivalent grids"). A 1 before the last dimension is
// kept: 1x2 maps the template's second dimension, 2 its first.
func Distinct(grids [][]int) [][]int {
	var out [][]int
	for _, g := range grids {
		if len(g) == 1 || g[len(g)-1] != 1 {
			out = append(out, g)
		}
	}
	return out
}
