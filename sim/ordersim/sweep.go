package ordersim

import (
	"context"
	"fmt"
	"sync"
)

// Point is the prediction for one number of nodes.
type Point struct {
	Nodes  int
	Result *Result
	// Reused is set when the schedule is that of a larger cluster which
	// left nodes unused, and so cannot change (docs/orders-sim.md, "Sweeps").
	Reused bool
}

// Sizes predicts a trace on clusters that differ in their number of nodes
// only: what a sweep over node counts and a search for the smallest
// cluster meeting a deadline ask. For FIFO, LeastLoaded and Locality with
// one power for every node, a run on N nodes that leaves nodes unused
// gives the schedule of every size from the number it used to N, which At
// reuses instead of simulating: ask for the largest sizes first to reuse
// the most. The runs that can settle other sizes are kept for that (a run
// that used all its nodes settles only its own size, and is not).
//
// At is safe for concurrent use, so that a parallel runner
// (sweep.Execute) can drive it. A Sizes keeps the memory of its
// simulations (Workspace) for the next, one Workspace for each
// simulation run at once, until it is dropped.
type Sizes struct {
	t        *Prepared
	base     Cluster
	opt      Options
	reusable bool

	mu   sync.Mutex
	runs map[int]*Result // by number of nodes simulated

	spaces workspaces // of the simulations finished, for the next
}

// Sizes prepares predictions of the trace on base resized (base.Nodes is
// ignored). Options.OnOrder is not called: the orders' own schedules are
// not kept; Options.ByProc's sums are, a reused run's being those of its
// schedule.
func (t *Prepared) Sizes(base Cluster, opt Options) (*Sizes, error) {
	if len(base.Power) > 1 {
		return nil, fmt.Errorf("ordersim: clusters of several sizes need one power for every node, not %d values", len(base.Power))
	}
	base.Nodes = 1
	if err := base.Validate(); err != nil {
		return nil, err
	}
	if err := opt.validate(); err != nil {
		return nil, err
	}
	opt.OnOrder, opt.Workspace = nil, nil
	return &Sizes{t: t, base: base, opt: opt, reusable: opt.scheduler() != WorkStealing, runs: map[int]*Result{}}, nil
}

// At predicts the trace on n nodes: from a run made already that settles
// n, else by simulating. A cancelled ctx stops it before it simulates,
// and a running simulation within ProgressEvery orders.
func (s *Sizes) At(ctx context.Context, n int) (Point, error) {
	if n < 1 {
		return Point{}, fmt.Errorf("ordersim: a cluster of %d nodes (expected at least 1)", n)
	}
	if r, m := s.settledBy(n); r != nil {
		return Point{Nodes: n, Result: r.resized(n, s.base.cores()), Reused: m != n}, nil
	}
	if err := ctx.Err(); err != nil {
		return Point{}, err
	}
	cl := s.base
	cl.Nodes = n
	opt := s.opt
	opt.Stop = ctx.Err
	opt.Workspace = s.spaces.get()
	r, err := s.t.Simulate(cl, opt)
	s.spaces.put(opt.Workspace)
	if err != nil {
		return Point{}, err
	}
	if s.reusable && r.NodesUsed < n {
		s.mu.Lock()
		s.runs[n] = r
		s.mu.Unlock()
	}
	return Point{Nodes: n, Result: r}, nil
}

// settledBy returns the kept run whose schedule is that of n nodes, if
// any, and the nodes it was simulated on: the fewest above n among the
// runs using at most n.
func (s *Sizes) settledBy(n int) (r *Result, simulated int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if r := s.runs[n]; r != nil {
		return r, n
	}
	for m, r := range s.runs {
		if m > n && r.NodesUsed <= n && (simulated == 0 || m < simulated) {
			simulated = m
		}
	}
	return s.runs[simulated], simulated
}

// resized returns r as the run on n ≥ r.NodesUsed nodes: the same
// schedule, without the nodes above n, which were idle throughout.
func (r *Result) resized(n, cores int) *Result {
	if n == len(r.Nodes) {
		return r
	}
	c := *r
	c.Nodes = r.Nodes[:n:n]
	idle := float64(cores) * r.Makespan * float64(len(r.Nodes)-n)
	c.Total.Idle -= idle
	return &c
}
