package ordersim

import (
	"bytes"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/presage-dvm/presage/ingest/ordergen"
	"github.com/presage-dvm/presage/orders/ordersched"
	"github.com/presage-dvm/presage/sim/ordertrace"
	"github.com/presage-dvm/presage/sim/workspan"
)

// randomTrace makes n orders with random parents, moments on a grid of
// halves (so that equal moments are frequent), a third of them with
// several results, parents requesting some children and orders
// requesting some earlier siblings, each a random result: every request
// stays within its maker's subtree and none can deadlock.
func randomTrace(rng *rand.Rand, n int) orders {
	tr := make(orders, n)
	lastMade := make([]float64, n+1)
	for i := range tr {
		o := ord(int64(i+1), 0, 0, float64(rng.IntN(9))/2)
		if rng.IntN(3) == 0 { // results before the last, in own-time order
			at := 0.0
			for range 1 + rng.IntN(2) {
				at = grid(rng, at, o.Duration)
				o.Results = slices.Insert(o.Results, len(o.Results)-1, ordertrace.Result{At: at})
			}
		}
		withBytes(o, int64(rng.IntN(64)), int64(rng.IntN(64)))
		if i > 0 {
			p := tr[rng.IntN(i)]
			o.Parent = p.ID
			o.MadeAt = grid(rng, lastMade[p.ID], p.Duration)
			lastMade[p.ID] = o.MadeAt
			if rng.IntN(3) > 0 {
				p.Requests = append(p.Requests, anyResult(rng, o, grid(rng, o.MadeAt, p.Duration)))
			}
			if s := tr[rng.IntN(i)]; s.Parent == o.Parent && rng.IntN(2) == 0 {
				o.Requests = append(o.Requests, anyResult(rng, s, grid(rng, 0, o.Duration)))
			}
		}
		tr[i] = o
	}
	for _, o := range tr {
		sortRequests(o.Requests)
	}
	return tr
}

// anyResult requests one of o's results at own moment at.
func anyResult(rng *rand.Rand, o *ordertrace.Order, at float64) ordertrace.Request {
	return ordertrace.Request{Order: o.ID, Result: rng.IntN(len(o.Results)), At: at}
}

func grid(rng *rand.Rand, lo, hi float64) float64 {
	return lo + float64(rng.IntN(int((hi-lo)*2)+1))/2
}

func sortRequests(rs []ordertrace.Request) {
	for i := 1; i < len(rs); i++ {
		for j := i; j > 0 && rs[j].At < rs[j-1].At; j-- {
			rs[j], rs[j-1] = rs[j-1], rs[j]
		}
	}
}

// generated are traces of ordergen's three shapes, jittered.
func generated(t testing.TB) []orders {
	opts := []ordergen.Options{
		{Shape: ordergen.DivideAndConquer, Depth: 6, Leaf: 2, Split: 0.5, Combine: 1, Jitter: 0.5, Seed: 1, ArgBytes: 100, ResultBytes: 50},
		{Shape: ordergen.Pipeline, Stages: 4, Items: 12, Leaf: 1, Feed: 0.3, Combine: 0.5, Jitter: 0.4, Seed: 2, ResultBytes: 10},
		{Shape: ordergen.MasterWorker, Workers: 9, Rounds: 4, Leaf: 3, Feed: 0.1, Combine: 1, Jitter: 0.7, Seed: 3, ArgBytes: 40},
	}
	var out []orders
	for _, opt := range opts {
		out = append(out, generate(t, opt))
	}
	return out
}

func generate(t testing.TB, opt ordergen.Options) orders {
	var buf bytes.Buffer
	if err := ordergen.Generate(&buf, opt); err != nil {
		t.Fatal(err)
	}
	r, err := ordertrace.NewReader(&buf, string(opt.Shape))
	if err != nil {
		t.Fatal(err)
	}
	tr, err := ordertrace.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

func workSpan(t *testing.T, tr orders) workspan.Summary {
	t.Helper()
	s, err := workspan.Analyze(tr.source(), workspan.Network{})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func traces(t *testing.T) []orders {
	rng := rand.New(rand.NewPCG(7, 11))
	all := generated(t)
	for range 150 {
		all = append(all, randomTrace(rng, 2+rng.IntN(40)))
	}
	return all
}

// TestUnlimitedNodesGiveTheSpan: with a node per order and free
// transfers, every order starts when made and resumes when its result is
// provided: the run is the as-soon-as-possible schedule, whose length is
// the span.
func TestUnlimitedNodesGiveTheSpan(t *testing.T) {
	for i, tr := range traces(t) {
		ws := workSpan(t, tr)
		for _, s := range []Scheduler{FIFO, LeastLoaded} {
			r := simulate(t, tr, Cluster{Nodes: len(tr)}, Options{Pin: true, Scheduler: s})
			if !near(r.Makespan, ws.Span) {
				t.Errorf("trace %d, %s: makespan %v on %d nodes, span %v", i, s, r.Makespan, len(tr), ws.Span)
			}
		}
	}
}

// TestOneNodeGivesTheWork: one node never idles while an order can run,
// and transfers are free on it.
func TestOneNodeGivesTheWork(t *testing.T) {
	for i, tr := range traces(t) {
		ws := workSpan(t, tr)
		for _, s := range ordersched.All {
			r := simulate(t, tr, Cluster{Nodes: 1, Latency: 1, Bandwidth: 10}, Options{Pin: true, Scheduler: s})
			if !near(r.Makespan, ws.Work) || !near(r.Total.Busy, ws.Work) {
				t.Errorf("trace %d, %s: makespan %v, busy %v on one node, work %v", i, s, r.Makespan, r.Total.Busy, ws.Work)
			}
		}
	}
}

// TestGreedyBounds: with N nodes and free transfers every schedule is at
// least max(W/N, S) (the work and span laws), and a greedy one, which
// never leaves a core free while an order is ready, at most W/N + S
// (Brent). FIFO and WorkStealing are greedy when resumed orders may
// migrate; the other cases are not, and only the lower bound is checked
// (TestAffinityIsNotGreedy shows the upper one failing).
func TestGreedyBounds(t *testing.T) {
	for i, tr := range traces(t) {
		ws := workSpan(t, tr)
		for _, n := range []int{2, 3, 5} {
			lo, hi := max(ws.Work/float64(n), ws.Span), ws.Work/float64(n)+ws.Span
			for _, s := range ordersched.All {
				for _, migrate := range []bool{false, true} {
					cl := Cluster{Nodes: n}
					r := simulate(t, tr, cl, Options{Scheduler: s, Seed: uint64(i), Pin: !migrate})
					greedy := migrate && (s == FIFO || s == WorkStealing)
					if r.Makespan < lo*(1-1e-9) || greedy && r.Makespan > hi*(1+1e-9) {
						t.Errorf("trace %d, %s (migrate %v) on %d nodes: makespan %v outside [%v, %v]", i, s, migrate, n, r.Makespan, lo, hi)
					}
					checkAccounts(t, r, cl)
					checkPathInTimeOrder(t, r)
				}
			}
		}
	}
}

// TestAffinityIsNotGreedy: when resumed orders keep to their node, a
// pipeline's stages pile up suspended on the nodes they started on and
// later queue behind each other while another node idles, past Brent's
// bound; letting them migrate restores it.
func TestAffinityIsNotGreedy(t *testing.T) {
	tr := generate(t, ordergen.Options{Shape: ordergen.Pipeline, Stages: 4, Items: 12, Leaf: 1, Feed: 0.3, Combine: 0.5, Jitter: 0.4, Seed: 2})
	ws := workSpan(t, tr)
	brent := ws.Work/2 + ws.Span
	keep := simulate(t, tr, Cluster{Nodes: 2}, Options{Pin: true})
	moved := simulate(t, tr, Cluster{Nodes: 2}, Options{})
	t.Logf("Brent's bound %.2f; resuming in place %.2f, migrating %.2f", brent, keep.Makespan, moved.Makespan)
	if keep.Makespan <= brent || moved.Makespan > brent {
		t.Errorf("in place %v, migrating %v: expected only the first above Brent's bound %v", keep.Makespan, moved.Makespan, brent)
	}
}

// TestCriticalPathInTimeOrder plays every trace where arguments and
// results take time to travel and orders queue for cores, so that steps
// of both kinds stand between two runs, and checks the path's time order.
func TestCriticalPathInTimeOrder(t *testing.T) {
	for i, tr := range traces(t) {
		for _, s := range ordersched.All {
			r := simulate(t, tr, Cluster{Nodes: 3, Latency: 0.05, Bandwidth: 1e6}, Options{Pin: true, Scheduler: s, Seed: uint64(i)})
			checkPathInTimeOrder(t, r)
		}
	}
}

// TestCriticalPathThroughAHubSpansTheRun: through a hub, the run begins
// with main's start crossing to its node, and main's end with its result
// crossing to the coordinator; the critical path begins with that start,
// a transfer, and its steps follow one another from 0 to the makespan
// (main's answer, or the end of an order that outlived it), an order
// that kept its core while a result came included.
func TestCriticalPathThroughAHubSpansTheRun(t *testing.T) {
	for i, tr := range traces(t) {
		for _, s := range ordersched.All {
			for _, ahead := range []int{0, 2} {
				r := simulate(t, tr, Cluster{Nodes: 3, Latency: 0.05, Bandwidth: 1e6, Hub: true, Ahead: ahead}, Options{Pin: true, Scheduler: s, Seed: uint64(i)})
				p := r.CriticalPath
				if len(p) < 2 {
					t.Fatalf("trace %d, %s, %d ahead: critical path of %d steps, want main's start and a run at least", i, s, ahead, len(p))
				}
				checkPathInTimeOrder(t, r)
				first, last := p[0], p[len(p)-1]
				if first.Kind != Transfer || first.Start != 0 || math.Abs(last.End-r.Makespan) > 1e-9*r.Makespan {
					t.Errorf("trace %d, %s, %d ahead: critical path from %v (%s) to %v, makespan %v; want main's start from 0, and the makespan",
						i, s, ahead, first.Start, first.Kind, last.End, r.Makespan)
				}
			}
		}
	}
}

// checkPathInTimeOrder checks that the critical path's steps follow one
// another in time: each starts where the one before it ended, from 0 to
// the makespan.
func checkPathInTimeOrder(t *testing.T, r *Result) {
	t.Helper()
	at := 0.0
	for i, st := range r.CriticalPath {
		if math.Abs(st.Start-at) > 1e-9*max(1, at) || st.End < st.Start {
			t.Fatalf("critical path step %d %v: starts at %v, the step before ended at %v", i, st, st.Start, at)
		}
		at = st.End
	}
	if math.Abs(at-r.Makespan) > 1e-9*max(1, at) {
		t.Errorf("critical path ends at %v, makespan %v", at, r.Makespan)
	}
}
