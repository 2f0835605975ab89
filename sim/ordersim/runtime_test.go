package ordersim

import (
	"testing"

	"github.com/presage-dvm/presage/sim/ordertrace"
)

// mainWaitsForTwo is a trace whose main (2 s) makes two children (3 s and
// 1 s) at 0 and waits for both at 1.
func mainWaitsForTwo() orders {
	return orders{
		ord(1, 0, 0, 2, rq(2, 1), rq(3, 1)),
		ord(2, 1, 0, 3),
		ord(3, 1, 0, 1),
	}
}

// TestRuntimeCostsByHand: main (2 s) makes two children at 0 and waits
// for both at 1. With the runtime's costs in the trace's header, each
// order pays OrderCost before its own work, and main pays WaitCost each
// time it resumes.
func TestRuntimeCostsByHand(t *testing.T) {
	tr := mainWaitsForTwo()
	withCosts := headed{tr, ordertrace.Header{OrderCost: 0.25, WaitCost: 0.5}}
	cases := []struct {
		name  string
		nodes int
		power float64
		want  float64
	}{
		// One node: main 0.25 + 1, suspends at 1.25 on 2, which runs
		// 1.25–4.5; main resumes ahead of 3, +0.5, and suspends on 3 at
		// 5; 3 runs 5–6.25; main resumes, +0.5, then its last 1 s.
		{"one node", 1, 1, 7.75},
		// Two nodes: main makes both at 0.25; 2 starts on node 1, its
		// work 0.5–3.5; 3 waits for a core: main suspends at 1.25 and
		// 3 runs there 1.25–2.5; main resumes at 3.5, +0.5, +1.
		{"two nodes", 2, 1, 5},
		// Power 2 halves the runtime's costs as it halves the orders'.
		{"one node, power 2", 1, 2, 7.75 / 2},
	}
	for _, c := range cases {
		r, err := Simulate(withCosts.open, Cluster{Nodes: c.nodes, Power: []float64{c.power}}, Options{Pin: true})
		if err != nil {
			t.Fatal(err)
		}
		if !near(r.Makespan, c.want) {
			t.Errorf("%s: makespan %v, want %v", c.name, r.Makespan, c.want)
		}
		free := simulate(t, tr, Cluster{Nodes: c.nodes, Power: []float64{c.power}}, Options{Pin: true})
		if free.Makespan >= r.Makespan {
			t.Errorf("%s: makespan %v without runtime costs, %v with", c.name, free.Makespan, r.Makespan)
		}
	}
}

// TestClusterRuntimeCosts: a cluster's own runtime costs (as network mode
// times them on worker processes) are charged in place of the trace's,
// whether the trace has costs of its own or none, and on the core once
// an order leaves it: the next order there waits for them, the order
// itself does not. A cluster without them leaves the trace's.
func TestClusterRuntimeCosts(t *testing.T) {
	tr := mainWaitsForTwo()
	costly := headed{tr, ordertrace.Header{OrderCost: 10, WaitCost: 10}}
	cheap := headed{tr, ordertrace.Header{OrderCost: 0.25, WaitCost: 0.5}}
	own := Cluster{Nodes: 1, OrderCost: 0.25, WaitCost: 0.5}
	for _, c := range []struct {
		name string
		open func() (ordertrace.Source, error)
		cl   Cluster
		want float64
	}{
		// Main runs 0–1 and suspends on 2: the core waits 0.5; 2 runs
		// 1.5–4.5, the core waits 0.25; main resumes at 4.75 and
		// suspends on 3: +0.5; 3 runs 5.25–6.25, +0.25; main resumes at
		// 6.5 and ends at 7.5. What follows its end is not the run's.
		{"the cluster's over the trace's", costly.open, own, 7.5},
		{"the cluster's on a trace without", headed{tr, ordertrace.Header{}}.open, own, 7.5},
		{"the trace's on a cluster without", cheap.open, Cluster{Nodes: 1}, 7.75},
		// Main suspends at 1, 2 runs 1.5–4.5, main resumes and suspends
		// again at 4.5, 3 runs 5–6, main ends at 7.
		{"the cluster's wait alone", costly.open, Cluster{Nodes: 1, WaitCost: 0.5}, 7},
	} {
		r, err := Simulate(c.open, c.cl, Options{Pin: true})
		if err != nil {
			t.Fatal(err)
		}
		if !near(r.Makespan, c.want) {
			t.Errorf("%s: makespan %v, want %v", c.name, r.Makespan, c.want)
		}
	}
}

// TestClusterRuntimeCostsHoldNoChainUp: an order whose result is there
// when asked for goes on; the runtime's work for the order that made it,
// on the other node's core, delays nothing. Charged before the orders'
// work, as a trace's costs are, the same costs delay both.
func TestClusterRuntimeCostsHoldNoChainUp(t *testing.T) {
	tr := orders{
		ord(1, 0, 0, 2, rq(2, 1)),
		ord(2, 1, 0, 0.5),
	}
	r, err := Simulate(headed{tr, ordertrace.Header{}}.open, Cluster{Nodes: 2, OrderCost: 0.5, WaitCost: 0.5}, Options{Pin: true})
	if err != nil {
		t.Fatal(err)
	}
	if !near(r.Makespan, 2) {
		t.Errorf("makespan %v with the cluster's costs, want 2 (main's own time)", r.Makespan)
	}
	before, err := Simulate(headed{tr, ordertrace.Header{OrderCost: 0.5, WaitCost: 0.5}}.open, Cluster{Nodes: 2}, Options{Pin: true})
	if err != nil {
		t.Fatal(err)
	}
	if !(before.Makespan > 2.4) {
		t.Errorf("makespan %v with the trace's costs, want main's 2 s and its order cost", before.Makespan)
	}
	for i, n := range r.Nodes {
		if sum := n.Busy + n.Idle + n.Waiting + n.Transfer; !near(sum, r.Makespan) {
			t.Errorf("node %d: busy, idle, waiting and transfer sum to %v, want the makespan %v", i, sum, r.Makespan)
		}
	}
}

// headed is an in-memory trace with a header.
type headed struct {
	orders orders
	header ordertrace.Header
}

func (h headed) open() (ordertrace.Source, error) {
	return headedSource{h.orders.source(), h.header}, nil
}

type headedSource struct {
	ordertrace.Source
	header ordertrace.Header
}

func (s headedSource) Header() ordertrace.Header { return s.header }

// TestSlowdownByHand: with a slowdown of 1.5 for two orders at once, two
// orders running together on the two cores of a node take half as long
// again, re-timed when the second starts; on two nodes of one core they
// slow each other only when the nodes share their memory.
func TestSlowdownByHand(t *testing.T) {
	slow := ordertrace.Header{Slowdown: []float64{1, 1.5}}
	together := headed{orders{ord(1, 0, 0, 0), ord(2, 1, 0, 2), ord(3, 1, 0, 2)}, slow}
	// main (1 s) makes 2 (2 s) at 0 and 3 (1 s) at 1: main and 2 run at
	// 1/1.5 until 1.5, when main ends and 3 starts; 2, at own 1, and 3
	// then end at 3.
	staggered := headed{orders{ord(1, 0, 0, 1), ord(2, 1, 0, 2), ord(3, 1, 1, 1)}, slow}
	cases := []struct {
		name   string
		trace  headed
		cl     Cluster
		shared bool
		want   float64
	}{
		{"two cores", together, Cluster{Nodes: 1, Cores: 2}, false, 3},
		{"two nodes", together, Cluster{Nodes: 2}, false, 2},
		{"two nodes sharing memory", together, Cluster{Nodes: 2}, true, 3},
		{"one core", together, Cluster{Nodes: 1}, false, 4},
		{"staggered, two cores", staggered, Cluster{Nodes: 1, Cores: 2}, false, 3},
	}
	for _, c := range cases {
		r, err := Simulate(c.trace.open, c.cl, Options{Pin: true, SharedMemory: c.shared})
		if err != nil {
			t.Fatal(err)
		}
		if !near(r.Makespan, c.want) {
			t.Errorf("%s: makespan %v, want %v", c.name, r.Makespan, c.want)
		}
	}
}
