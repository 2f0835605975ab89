package ordersim

import (
	"fmt"
	"math"
	"slices"
)

// Smallest is the answer of SmallestFor.
type Smallest struct {
	Nodes  int     // the fewest nodes that meet the deadline; 0 when none up to the maximum does
	Result *Result // the prediction on Nodes nodes
	// Evaluated lists the sizes whose makespans the search looked at;
	// Scanned is set when they were not monotone and the search fell
	// back to trying every size from 1.
	Evaluated []int
	Scanned   bool
}

// SmallestFor returns the fewest nodes, up to maxNodes, on which the trace
// ends by deadline. It bisects when the makespans it evaluates decrease
// with the number of nodes, and checks that they do: when one of them
// does not, monotonicity is not to be assumed, and it scans every size
// from 1 instead (reusing runs as Sweep does).
func (t *Trace) SmallestFor(deadline float64, base Cluster, maxNodes int, opt Options) (*Smallest, error) {
	if !(deadline >= 0) || math.IsInf(deadline, 0) {
		return nil, fmt.Errorf("ordersim: deadline %v (expected a finite number ≥ 0)", deadline)
	}
	if maxNodes < 1 {
		return nil, fmt.Errorf("ordersim: at most %d nodes (expected at least 1)", maxNodes)
	}
	s, err := t.sweeper(base, opt, 1)
	if err != nil {
		return nil, err
	}
	ans := &Smallest{}
	eval := func(n int) (bool, error) {
		ans.Evaluated = append(ans.Evaluated, n)
		m, err := s.makespan(n)
		return m <= deadline, err
	}
	n, err := bisect(maxNodes, eval)
	if err != nil {
		return nil, err
	}
	if !s.monotone(ans.Evaluated) {
		ans.Scanned = true
		if n, err = scan(maxNodes, eval); err != nil {
			return nil, err
		}
	}
	if n > 0 {
		ans.Nodes, ans.Result = n, s.point(n).Result
	}
	return ans, nil
}

// bisect returns the smallest n in [1, max] with ok(n), assuming ok is
// monotone; 0 when ok(max) fails.
func bisect(max int, ok func(int) (bool, error)) (int, error) {
	if good, err := ok(max); err != nil || !good {
		return 0, err
	}
	lo, hi := 0, max // ok(hi) holds; ok(lo) fails or lo is 0
	for hi-lo > 1 {
		mid := lo + (hi-lo)/2
		good, err := ok(mid)
		if err != nil {
			return 0, err
		}
		if good {
			hi = mid
		} else {
			lo = mid
		}
	}
	return hi, nil
}

// scan returns the smallest n in [1, max] with ok(n), 0 when none.
func scan(max int, ok func(int) (bool, error)) (int, error) {
	for n := 1; n <= max; n++ {
		if good, err := ok(n); err != nil || good {
			return n, err
		}
	}
	return 0, nil
}

// monotone reports whether the makespans of the sizes evaluated never
// grow with the number of nodes.
func (s *sweeper) monotone(sizes []int) bool {
	sizes = slices.Clone(sizes)
	slices.Sort(sizes)
	prev := math.Inf(1)
	for _, n := range slices.Compact(sizes) {
		r, _ := s.settledBy(n)
		if r.Makespan > prev*(1+1e-12) {
			return false
		}
		prev = r.Makespan
	}
	return true
}
