package sweep

import (
	"fmt"
	"math"
	"slices"
)

// NodeSeconds is the cost of a run on n nodes taking t seconds: the node
// time it holds, as a cluster's allocation is charged (stored.Outcome.Cost
// is the same for the processors of a DVM run). Every size of a sweep has
// the same cores per node, so core-seconds are cores × this and rank the
// sizes alike.
func NodeSeconds(n int, t float64) float64 { return float64(n) * t }

// Pick is a size chosen among the sizes simulated by FastestWithin or
// CheapestFor. Cost is no monotone function of the size (a size that
// divides the work evenly is cheaper than its neighbours; a slower larger
// cluster costs more twice over), so neither bisects: each scans the run
// times it is given, and a size not among them is not considered.
type Pick struct {
	Size int     // the size chosen; 0 when none qualifies
	Time float64 // its run time
	Cost float64 // its node-seconds
	// Scanned is how many sizes were considered: all those given.
	Scanned int
	// Least is the least cost among them (+Inf when none was given), so a
	// budget none fits can say how far it is.
	Least float64
}

// FastestWithin returns, among the sizes of times (size → run time), the
// fastest whose node-seconds are at most budget: what a user with an
// allocation asks. Of sizes equally fast, the fewer nodes (they cost
// less).
func FastestWithin(times map[int]float64, budget float64) (Pick, error) {
	if !(budget > 0) || math.IsInf(budget, 0) {
		return Pick{}, fmt.Errorf("budget %v (expected a finite number of node-seconds > 0)", budget)
	}
	return pick(times, func(n int, t float64) bool { return NodeSeconds(n, t) <= budget },
		func(a, b candidate) bool { return a.t < b.t })
}

// CheapestFor returns, among the sizes of times (size → run time), the one
// of least node-seconds whose run time is at most deadline: the cluster
// that meets it and uses the allocation least, which is not always the
// smallest one meeting it (SmallestFor). Of sizes costing alike, the
// faster, then the fewer nodes.
func CheapestFor(times map[int]float64, deadline float64) (Pick, error) {
	if !(deadline >= 0) || math.IsInf(deadline, 0) {
		return Pick{}, fmt.Errorf("deadline %v (expected a finite number ≥ 0)", deadline)
	}
	return pick(times, func(_ int, t float64) bool { return t <= deadline },
		func(a, b candidate) bool { return a.cost < b.cost || a.cost == b.cost && a.t < b.t })
}

type candidate struct {
	n       int
	t, cost float64
}

// pick scans the sizes in increasing order (so that ties keep the fewer
// nodes) for the best of those that qualify.
func pick(times map[int]float64, ok func(n int, t float64) bool, better func(a, b candidate) bool) (Pick, error) {
	ans := Pick{Scanned: len(times), Least: math.Inf(1)}
	sizes := make([]int, 0, len(times))
	for n, t := range times {
		if n < 1 || !(t >= 0) || math.IsInf(t, 0) {
			return Pick{}, fmt.Errorf("run time %v on %d nodes (expected a size ≥ 1 and a finite time ≥ 0)", t, n)
		}
		sizes = append(sizes, n)
	}
	slices.Sort(sizes)
	var best *candidate
	for _, n := range sizes {
		c := candidate{n, times[n], NodeSeconds(n, times[n])}
		ans.Least = min(ans.Least, c.cost)
		if ok(n, c.t) && (best == nil || better(c, *best)) {
			best = &c
		}
	}
	if best != nil {
		ans.Size, ans.Time, ans.Cost = best.n, best.t, best.cost
	}
	return ans, nil
}
