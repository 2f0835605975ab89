package ordersim

import (
	"fmt"
	"math"
	"runtime"
	"slices"
	"sync"

	"golang.org/x/sync/errgroup"
)

// Point is the prediction for one number of nodes.
type Point struct {
	Nodes  int
	Result *Result
	// Reused is set when the schedule is that of a larger cluster which
	// left nodes unused, and so cannot change (docs/orders-sim.md, "Sweeps").
	Reused bool
}

// Sweep predicts the trace on base resized to each number of nodes, in
// increasing order of nodes. It simulates at most workers clusters at
// once (0 means GOMAXPROCS). For FIFO, LeastLoaded and Locality with one
// power for every node, a run on N nodes that leaves nodes unused gives
// the schedule of every size from the number it used to N, which Sweep
// reuses instead of simulating; it simulates the largest sizes first to
// reuse the most. Options.OnOrder is not called.
func (t *Trace) Sweep(base Cluster, nodes []int, opt Options, workers int) ([]Point, error) {
	s, err := t.sweeper(base, opt, workers)
	if err != nil {
		return nil, err
	}
	sizes := slices.Clone(nodes)
	slices.Sort(sizes)
	sizes = slices.Compact(sizes)
	for _, n := range sizes {
		if n < 1 {
			return nil, fmt.Errorf("ordersim: sweep over %d nodes (expected at least 1)", n)
		}
	}
	for {
		todo := s.unknown(sizes)
		if len(todo) == 0 {
			break
		}
		// The largest first: their unused nodes may settle smaller ones.
		slices.Reverse(todo)
		if err := s.simulate(todo[:min(len(todo), s.workers)]); err != nil {
			return nil, err
		}
	}
	points := make([]Point, len(sizes))
	for i, n := range sizes {
		points[i] = s.point(n)
	}
	return points, nil
}

// sweeper simulates a trace on clusters that differ in size only, and
// remembers which sizes the runs it made settle.
type sweeper struct {
	t        *Trace
	base     Cluster
	opt      Options
	workers  int
	reusable bool

	mu   sync.Mutex
	runs map[int]*Result // by number of nodes simulated
}

func (t *Trace) sweeper(base Cluster, opt Options, workers int) (*sweeper, error) {
	if len(base.Power) > 1 {
		return nil, fmt.Errorf("ordersim: a sweep needs one power for every node, not %d values", len(base.Power))
	}
	base.Nodes = 1
	if err := base.Validate(); err != nil {
		return nil, err
	}
	if err := opt.validate(); err != nil {
		return nil, err
	}
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	opt.OnOrder = nil
	return &sweeper{t: t, base: base, opt: opt, workers: workers,
		reusable: opt.scheduler() != WorkStealing, runs: map[int]*Result{}}, nil
}

// settledBy returns the run whose schedule is that of n nodes, if any.
func (s *sweeper) settledBy(n int) (r *Result, simulated int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if r := s.runs[n]; r != nil {
		return r, n
	}
	if !s.reusable {
		return nil, 0
	}
	for m, r := range s.runs {
		if m > n && r.NodesUsed <= n && (simulated == 0 || m < simulated) {
			simulated = m
		}
	}
	return s.runs[simulated], simulated
}

func (s *sweeper) unknown(sizes []int) []int {
	var todo []int
	for _, n := range sizes {
		if r, _ := s.settledBy(n); r == nil {
			todo = append(todo, n)
		}
	}
	return todo
}

// simulate runs the sizes in parallel.
func (s *sweeper) simulate(sizes []int) error {
	var g errgroup.Group
	for _, n := range sizes {
		g.Go(func() error {
			cl := s.base
			cl.Nodes = n
			r, err := s.t.Simulate(cl, s.opt)
			if err != nil {
				return err
			}
			s.mu.Lock()
			s.runs[n] = r
			s.mu.Unlock()
			return nil
		})
	}
	return g.Wait()
}

// point returns the prediction for n nodes from the run that settles it.
func (s *sweeper) point(n int) Point {
	r, m := s.settledBy(n)
	if m == n {
		return Point{Nodes: n, Result: r}
	}
	return Point{Nodes: n, Result: r.resized(n, s.base.cores()), Reused: true}
}

// makespan returns the makespan on n nodes, simulating when needed.
func (s *sweeper) makespan(n int) (float64, error) {
	if r, _ := s.settledBy(n); r != nil {
		return r.Makespan, nil
	}
	if err := s.simulate([]int{n}); err != nil {
		return 0, err
	}
	r, _ := s.settledBy(n)
	return r.Makespan, nil
}

// resized returns r as the run on n ≥ r.NodesUsed nodes: the same
// schedule, without the nodes above n, which were idle throughout.
func (r *Result) resized(n, cores int) *Result {
	c := *r
	c.Nodes = r.Nodes[:n:n]
	idle := float64(cores) * r.Makespan * float64(len(r.Nodes)-n)
	c.Total.Idle -= idle
	return &c
}

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
