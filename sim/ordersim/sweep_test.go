package ordersim

import (
	"cmp"
	"math/rand/v2"
	"slices"
	"testing"
)

func prepare(t testing.TB, tr orders) *Trace {
	t.Helper()
	p, err := Prepare(tr.open)
	if err != nil {
		t.Fatal(err)
	}
	return p
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
		for _, s := range Schedulers {
			for _, cl := range []Cluster{{}, {Cores: 2, Latency: 0.1, Bandwidth: 1000, Power: []float64{1.5}}} {
				opt := Options{Scheduler: s, Seed: 9}
				points, err := p.Sweep(cl, sizes, opt, 2)
				if err != nil {
					t.Fatal(err)
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
		slices.Equal(a.CriticalPath, b.CriticalPath) && a.NodesUsed == b.NodesUsed
}

// TestSmallestFor compares the search with trying every size, on traces
// whose makespans decrease with the number of nodes.
func TestSmallestFor(t *testing.T) {
	checked := 0
	for i, tr := range generated(t) {
		p := prepare(t, tr)
		var spans []float64
		for n := 1; n <= 40; n++ {
			spans = append(spans, simulate(t, tr, Cluster{Nodes: n}, Options{Migrate: true}).Makespan)
		}
		if !slices.IsSortedFunc(spans, func(a, b float64) int { return -cmp.Compare(a, b) }) {
			t.Logf("trace %d is not monotone: %v", i, spans)
			continue
		}
		checked++
		for _, d := range []float64{spans[0] + 1, spans[0], spans[5], (spans[3] + spans[4]) / 2, spans[39], spans[39] - 0.5} {
			got, err := p.SmallestFor(d, Cluster{}, 40, Options{Migrate: true})
			if err != nil {
				t.Fatal(err)
			}
			want := 0
			for n, m := range spans {
				if m <= d {
					want = n + 1
					break
				}
			}
			if got.Nodes != want || got.Scanned {
				t.Errorf("trace %d, deadline %v: %d nodes (scanned %v), want %d", i, d, got.Nodes, got.Scanned, want)
			}
			if len(got.Evaluated) > 8 {
				t.Errorf("trace %d: %d sizes evaluated, a bisection of 40 needs at most 7", i, len(got.Evaluated))
			}
		}
	}
	if checked == 0 {
		t.Error("no generated trace was monotone: the test checks nothing")
	}
}

// TestSearchFallsBackToAScan: bisect on a function that is not monotone,
// as a makespan may not be (more nodes can be slower: Graham's anomalies).
func TestSearchFallsBackToAScan(t *testing.T) {
	// Sizes 1..10; only 3 and 8..10 meet the deadline.
	meets := func(n int) (bool, error) { return n == 3 || n >= 8, nil }
	if n, _ := bisect(10, meets); n != 8 {
		t.Errorf("bisection found %d, want 8 (it cannot see 3)", n)
	}
	if n, _ := scan(10, meets); n != 3 {
		t.Errorf("scan found %d, want 3", n)
	}
	none := func(int) (bool, error) { return false, nil }
	if n, _ := bisect(10, none); n != 0 {
		t.Errorf("bisection found %d where nothing meets the deadline", n)
	}
}

// TestSmallestForScansWhenNotMonotone finds a random trace whose makespans
// are not monotone where the search looks, and checks the scan's answer.
func TestSmallestForScansWhenNotMonotone(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for range 400 {
		tr := randomTrace(rng, 30)
		p := prepare(t, tr)
		spans := make([]float64, 12)
		for n := range spans {
			spans[n] = simulate(t, tr, Cluster{Nodes: n + 1}, Options{}).Makespan
		}
		for _, d := range spans {
			got, err := p.SmallestFor(d, Cluster{}, len(spans), Options{})
			if err != nil {
				t.Fatal(err)
			}
			if !got.Scanned {
				continue
			}
			want := slices.IndexFunc(spans, func(m float64) bool { return m <= d }) + 1
			if got.Nodes != want {
				t.Fatalf("scan found %d nodes for deadline %v, want %d (makespans %v)", got.Nodes, d, want, spans)
			}
			return
		}
	}
	t.Skip("no random trace with a visible anomaly")
}

func TestSweepErrors(t *testing.T) {
	p := prepare(t, forkJoin())
	if _, err := p.Sweep(Cluster{Power: []float64{1, 2}}, []int{2}, Options{}, 1); err == nil {
		t.Error("a sweep with a power per node: no error")
	}
	if _, err := p.Sweep(Cluster{}, []int{0, 2}, Options{}, 1); err == nil {
		t.Error("a sweep over 0 nodes: no error")
	}
	if _, err := p.SmallestFor(-1, Cluster{}, 4, Options{}); err == nil {
		t.Error("a negative deadline: no error")
	}
	if _, err := p.SmallestFor(1, Cluster{}, 0, Options{}); err == nil {
		t.Error("at most 0 nodes: no error")
	}
}
