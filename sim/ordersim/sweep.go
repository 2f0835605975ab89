package ordersim

import (
	"fmt"
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
