package ordersim

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/presage-dvm/presage/orders/ordersched"
	"github.com/presage-dvm/presage/sim/sweep"
)

func prepare(t testing.TB, tr orders) *Prepared {
	t.Helper()
	p, err := Prepare(tr.open)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// sweepSizes predicts every size of nodes as a sweep does: the largest
// first, on workers at once through the shared runner.
func sweepSizes(t testing.TB, s *Sizes, nodes []int, workers int) []Point {
	t.Helper()
	sizes := slices.Clone(nodes)
	slices.Sort(sizes)
	slices.Reverse(sizes)
	var points []Point
	err := sweep.Execute(context.Background(), sizes, workers, s.At, func(_ int, p Point) error {
		points = append(points, p)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.SortFunc(points, func(a, b Point) int { return a.Nodes - b.Nodes })
	return points
}

// TestSweepReusesExactly checks every point of sweeps against a direct
// simulation: the reused ones must be the same schedules.
func TestSweepReusesExactly(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	trs := append(generated(t), randomTrace(rng, 60), randomTrace(rng, 90))
	sizes := []int{1, 2, 3, 5, 8, 13, 21, 34, 55, 89, 144}
	reused := 0
	for i, tr := range trs {
		p := prepare(t, tr)
		for _, s := range ordersched.All {
			for _, cl := range []Cluster{{}, {Cores: 2, Latency: 0.1, Bandwidth: 1000, Power: []float64{1.5}}} {
				opt := Options{Pin: true, Scheduler: s, Seed: 9, ByProc: true}
				sz, err := p.Sizes(cl, opt)
				if err != nil {
					t.Fatal(err)
				}
				points := sweepSizes(t, sz, sizes, 2)
				if len(points) != len(sizes) {
					t.Fatalf("%d points for %d sizes", len(points), len(sizes))
				}
				for _, pt := range points {
					c := cl
					c.Nodes = pt.Nodes
					want := simulate(t, tr, c, opt)
					if !sameResult(pt.Result, want) {
						t.Errorf("trace %d, %s, %d nodes (reused %v): sweep %+v\nwant %+v", i, s, pt.Nodes, pt.Reused, pt.Result, want)
					}
					if pt.Reused {
						reused++
						if s == WorkStealing {
							t.Errorf("trace %d: work stealing reused a run for %d nodes", i, pt.Nodes)
						}
					}
				}
			}
		}
	}
	if reused == 0 {
		t.Error("no point was reused: the test checks nothing")
	}
}

func sameResult(a, b *Result) bool {
	return near(a.Makespan, b.Makespan) && slices.Equal(a.Nodes, b.Nodes) && near(a.Total.Idle, b.Total.Idle) &&
		slices.Equal(a.CriticalPath, b.CriticalPath) && a.NodesUsed == b.NodesUsed && slices.Equal(a.Procs, b.Procs)
}

// TestSizesReuseLargestFirst: asked from the largest size down, a run on
// more nodes than the trace uses settles every smaller size down to the
// nodes it used, and those are not simulated again.
func TestSizesReuseLargestFirst(t *testing.T) {
	p := prepare(t, forkJoin()) // main and one child: 2 nodes at most
	s, err := p.Sizes(Cluster{}, Options{Pin: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		n      int
		reused bool
	}{{8, false}, {5, true}, {2, true}, {1, false}, {8, false}} {
		pt, err := s.At(context.Background(), tc.n)
		if err != nil {
			t.Fatal(err)
		}
		if pt.Nodes != tc.n || len(pt.Result.Nodes) != tc.n || pt.Reused != tc.reused {
			t.Errorf("%d nodes: point of %d nodes, %d node rows, reused %v; want reused %v",
				tc.n, pt.Nodes, len(pt.Result.Nodes), pt.Reused, tc.reused)
		}
	}
}

func TestSizesErrors(t *testing.T) {
	p := prepare(t, forkJoin())
	if _, err := p.Sizes(Cluster{Power: []float64{1, 2}}, Options{Pin: true}); err == nil {
		t.Error("sizes with a power per node: no error")
	}
	if _, err := p.Sizes(Cluster{Latency: -1}, Options{Pin: true}); err == nil {
		t.Error("sizes with a negative latency: no error")
	}
	s, err := p.Sizes(Cluster{}, Options{Pin: true})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.At(context.Background(), 0); err == nil {
		t.Error("0 nodes: no error")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := s.At(ctx, 3); err == nil {
		t.Error("cancelled: no error")
	}
}
