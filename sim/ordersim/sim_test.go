package ordersim

import (
	"fmt"
	"reflect"
	"slices"
	"testing"
)

// forkJoin is main (3 s of work) making A (4 s) at 1 and requesting it
// at 2; A's arguments are 50 bytes, its result 100.
func forkJoin() orders {
	return orders{
		ord(1, 0, 0, 3, rq(2, 2)),
		withBytes(ord(2, 1, 1, 4), 50, 100),
	}
}

// slow is a network where 50 bytes take 1 s and 100 bytes 1.5 s.
var slow = Cluster{Latency: 0.5, Bandwidth: 100}

func nodes(n int, c Cluster) Cluster { c.Nodes = n; return c }

func TestForkJoinByHand(t *testing.T) {
	tests := []struct {
		name     string
		cl       Cluster
		sched    Scheduler
		makespan float64
		a        OrderResult // A's schedule
		mainWait float64
		main     []Stretch // main's stretches: until its request, after A's result
	}{
		// One node: main runs 0–2, suspends at its request; A runs 2–6;
		// main resumes at 6 and ends at 7 = work 3 + 4.
		{"1 node", nodes(1, slow), FIFO, 7, a(0, OrderResult{Made: 1, Ready: 1, Start: 2, End: 6}), 4, []Stretch{{0, 0, 2}, {0, 6, 7}}},
		// Power 2 halves every stretch: 3.5.
		{"power 2", Cluster{Nodes: 1, Power: []float64{2}}, FIFO, 3.5, a(0, OrderResult{Made: 0.5, Ready: 0.5, Start: 1, End: 3}), 2, []Stretch{{0, 0, 1}, {0, 3, 3.5}}},
		// Two cores: A starts when made, at 1, and ends at 5; main waits
		// 2–5 and ends at 6.
		{"2 cores", Cluster{Nodes: 1, Cores: 2}, FIFO, 6, a(0, OrderResult{Made: 1, Ready: 1, Start: 1, End: 5}), 3, []Stretch{{0, 0, 2}, {0, 5, 6}}},
		// Two nodes: A is taken by node 1 at 1, its arguments arrive at
		// 1 + 0.5 + 50/100 = 2; it runs 2–6; its result reaches node 0
		// at 6 + 0.5 + 100/100 = 7.5; main ends at 8.5.
		{"fifo 2 nodes", nodes(2, slow), FIFO, 8.5, a(1, OrderResult{Made: 1, Ready: 1, Start: 2, End: 6, Transfer: 1}), 5.5, []Stretch{{0, 0, 2}, {0, 7.5, 8.5}}},
		// The same network given as the DVM's time per byte, 0.01 s.
		{"fifo 2 nodes, tbyte", Cluster{Nodes: 2, Latency: 0.5, TByte: 0.01}, FIFO, 8.5, a(1, OrderResult{Made: 1, Ready: 1, Start: 2, End: 6, Transfer: 1}), 5.5, []Stretch{{0, 0, 2}, {0, 7.5, 8.5}}},
		// Least loaded places A on the idle node 1 when made: its
		// arguments arrive at 2, the rest as FIFO, but A was ready at 2.
		{"least-loaded", nodes(2, slow), LeastLoaded, 8.5, a(1, OrderResult{Made: 1, Ready: 2, Start: 2, End: 6, Transfer: 1}), 5.5, []Stretch{{0, 0, 2}, {0, 7.5, 8.5}}},
		// Locality keeps A on main's node (load 1 ≤ 0 + slack 1): no
		// transfer; A runs when main suspends, 2–6; main ends at 7.
		{"locality", nodes(2, slow), Locality, 7, a(0, OrderResult{Made: 1, Ready: 1, Start: 2, End: 6}), 4, []Stretch{{0, 0, 2}, {0, 6, 7}}},
		// Node 1 steals A from node 0 at 1, as FIFO.
		{"work-stealing", nodes(2, slow), WorkStealing, 8.5, a(1, OrderResult{Made: 1, Ready: 1, Start: 2, End: 6, Transfer: 1}), 5.5, []Stretch{{0, 0, 2}, {0, 7.5, 8.5}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, got := schedules(t, forkJoin(), tt.cl, Options{Pin: true, Scheduler: tt.sched})
			if !near(r.Makespan, tt.makespan) {
				t.Errorf("makespan %v, want %v", r.Makespan, tt.makespan)
			}
			if !reflect.DeepEqual(got[2], tt.a) {
				t.Errorf("A: %+v\nwant %+v", got[2], tt.a)
			}
			if m := got[1]; !near(m.Wait, tt.mainWait) || !reflect.DeepEqual(m.Stretches, tt.main) || m.Proc != "p" || m.Parent != 0 {
				t.Errorf("main waited %v, ran %v; want %v and %v", m.Wait, m.Stretches, tt.mainWait, tt.main)
			}
			checkAccounts(t, r, tt.cl)
		})
	}
}

// a is order A of forkJoin, which ran r from r.Start to r.End on node
// without a wait, as its parent's first child.
func a(node int, r OrderResult) OrderResult {
	r.ID, r.Proc, r.Parent, r.Node = 2, "p", 1, node
	r.Stretches = []Stretch{{node, r.Start, r.End}}
	return r
}

// checkAccounts checks that every node's time adds up.
func checkAccounts(t *testing.T, r *Result, cl Cluster) {
	t.Helper()
	for i, n := range r.Nodes {
		sum := n.Busy + n.Transfer + n.Waiting + n.Idle
		if !near(sum, float64(cl.cores())*r.Makespan) {
			t.Errorf("node %d: %+v adds up to %v, want cores × makespan %v", i, n, sum, float64(cl.cores())*r.Makespan)
		}
	}
}

func TestNodeTimesByHand(t *testing.T) {
	r := simulate(t, forkJoin(), nodes(2, slow), Options{Pin: true})
	// Node 0 runs main 0–2 and 7.5–8.5 and holds it suspended 2–7.5.
	// Node 1 is idle 0–1, receives A's arguments 1–2, runs A 2–6, and is
	// idle again 6–8.5.
	want := []NodeStats{{Busy: 3, Waiting: 5.5, Orders: 1}, {Busy: 4, Transfer: 1, Idle: 3.5, Orders: 1}}
	for i := range want {
		if r.Nodes[i] != want[i] {
			t.Errorf("node %d: %+v, want %+v", i, r.Nodes[i], want[i])
		}
	}
	if r.NodesUsed != 2 || r.Orders != 2 {
		t.Errorf("used %d nodes for %d orders, want 2 and 2", r.NodesUsed, r.Orders)
	}
}

func TestCriticalPathByHand(t *testing.T) {
	r := simulate(t, forkJoin(), nodes(2, slow), Options{Pin: true})
	// main runs until it makes A; A's arguments travel; A runs; its
	// result travels back; main finishes.
	want := []pathStep{
		{Exec, 1, "p", 0, 0, 1},
		{Transfer, 2, "p", 1, 1, 2},
		{Exec, 2, "p", 1, 2, 6},
		{Transfer, 1, "p", 0, 6, 7.5},
		{Exec, 1, "p", 0, 7.5, 8.5},
	}
	if fmt.Sprint(pathOf(r.CriticalPath)) != fmt.Sprint(want) {
		t.Errorf("critical path\n %v\nwant %v", r.CriticalPath, want)
	}
	// On one node, A waits for the core main holds until it suspends.
	r = simulate(t, forkJoin(), nodes(1, slow), Options{Pin: true})
	want = []pathStep{{Exec, 1, "p", 0, 0, 1}, {Queue, 2, "p", 0, 1, 2}, {Exec, 2, "p", 0, 2, 6}, {Exec, 1, "p", 0, 6, 7}}
	if fmt.Sprint(pathOf(r.CriticalPath)) != fmt.Sprint(want) {
		t.Errorf("critical path on one node\n %v\nwant %v", r.CriticalPath, want)
	}
}

// TestResultsTravelWhenProvided checks the transfer rule: a result leaves
// when provided, so a request after its arrival does not wait.
func TestResultsTravelWhenProvided(t *testing.T) {
	// A (1 s) is taken by node 1 at 0; its arguments take 0.5 s (no
	// bandwidth limit), it runs 0.5–1.5, its result reaches node 0 at 2.
	cl := Cluster{Nodes: 2, Latency: 0.5}
	for _, tt := range []struct{ at, end, wait float64 }{
		{5, 10, 0},      // main asks at 5, after the arrival: no wait
		{1.8, 10.2, .2}, // main asks at 1.8 and waits until 2
	} {
		tr := orders{ord(1, 0, 0, 10, rq(2, tt.at)), ord(2, 1, 0, 1)}
		r, got := schedules(t, tr, cl, Options{Pin: true})
		if !near(r.Makespan, tt.end) || !near(got[1].Wait, tt.wait) {
			t.Errorf("request at %v: makespan %v, main waited %v; want %v and %v", tt.at, r.Makespan, got[1].Wait, tt.end, tt.wait)
		}
	}
}

// TestWorkStealingRunsNewestFirst: on one node, main makes A, B, C (1, 2
// and 3 s) at 0, works 1 s and waits for them. The node runs C 1–4, B
// 4–6, A 6–7 (newest first); FIFO runs A 1–2, B 2–4, C 4–7.
func TestWorkStealingRunsNewestFirst(t *testing.T) {
	tr := orders{
		ord(1, 0, 0, 1, rq(2, 1), rq(3, 1), rq(4, 1)),
		ord(2, 1, 0, 1), ord(3, 1, 0, 2), ord(4, 1, 0, 3),
	}
	for _, tt := range []struct {
		sched Scheduler
		ends  [3]float64
	}{
		{WorkStealing, [3]float64{7, 6, 4}},
		{FIFO, [3]float64{2, 4, 7}},
	} {
		r, got := schedules(t, tr, Cluster{Nodes: 1}, Options{Pin: true, Scheduler: tt.sched})
		ends := [3]float64{got[2].End, got[3].End, got[4].End}
		if ends != tt.ends || r.Makespan != 7 {
			t.Errorf("%s: A, B, C end at %v, makespan %v; want %v and 7", tt.sched, ends, r.Makespan, tt.ends)
		}
	}
}

// TestResumedFirst: a resumed order goes ahead of new ones on its node.
// Main makes A (1 s) and B (5 s) at 0 and asks for A at 0; on one node A
// runs 0–1; at 1 main resumes (ahead of B) and runs its 2 s, 1–3; B runs
// 3–8.
func TestResumedFirst(t *testing.T) {
	tr := orders{ord(1, 0, 0, 2, rq(2, 0)), ord(2, 1, 0, 1), ord(3, 1, 0, 5)}
	r, got := schedules(t, tr, Cluster{Nodes: 1}, Options{Pin: true})
	if got[1].End != 3 || got[3].Start != 3 || r.Makespan != 8 {
		t.Errorf("main ends at %v, B starts at %v, makespan %v; want 3, 3, 8", got[1].End, got[3].Start, r.Makespan)
	}
}

// TestMigrateByHand: main makes A (1 s) and B (5 s) at 0 and asks for A
// at once. FIFO on two nodes: main suspends on node 0; A goes to node 1,
// the one without a suspended order, and runs 0–1; B takes node 0, 0–5.
// In place, main waits for node 0 until 5 and ends at 7; migrating, it
// resumes on node 1 at 1 and ends at 3, and B's end at 5 is the makespan.
func TestMigrateByHand(t *testing.T) {
	tr := orders{ord(1, 0, 0, 2, rq(2, 0)), ord(2, 1, 0, 1), ord(3, 1, 0, 5)}
	for _, tt := range []struct {
		migrate        bool
		mainEnd, total float64
		mainNode       int
	}{
		{false, 7, 7, 0},
		{true, 3, 5, 1},
	} {
		r, got := schedules(t, tr, Cluster{Nodes: 2}, Options{Pin: !tt.migrate})
		if got[2].Node != 1 || got[3].Node != 0 || got[1].End != tt.mainEnd || got[1].Node != tt.mainNode || r.Makespan != tt.total {
			t.Errorf("migrate %v: A on %d, B on %d, main ends at %v on %d, makespan %v; want 1, 0, %v on %d, %v",
				tt.migrate, got[2].Node, got[3].Node, got[1].End, got[1].Node, r.Makespan, tt.mainEnd, tt.mainNode, tt.total)
		}
	}
}

// TestHubTakesOneMessageAtATime: main (10 s on node 0) makes three
// orders at 0, which the three other nodes take. Small arguments (2
// bytes, at 1 byte per second) go with the coordinator's messages:
// alone on the network each start arrives at 2; through the hub each
// takes the two links of the coordinator's connection in turn, 1 s
// each, so the orders start at 2, 3 and 4 (the first link frees at 1,
// 2, 3; the second at 2, 3, 4). Big arguments (2 s each) go from main's
// node to the order's, after the coordinator's round of control: alone
// on the network, at 2; through the hub (its server relays them) over
// the link in of node 0's connection, one at a time, then the link out
// of the order's node's: at 2, 3 and 4 when the rounds of control cost
// nothing (the third joins the second's batch on the link in, which an
// empty message's start-up of 0 does not shorten); with a latency of 2
// s (main's start arriving at 2, each round and each transfer 1 s on
// each link) at 6, 7 and 8: the rounds queue on the coordinator's
// connection (done at 4, 5 and 6), the transfers on node 0's link in.
func TestHubTakesOneMessageAtATime(t *testing.T) {
	for _, tt := range []struct {
		args int64
		cl   Cluster
		want []float64
	}{
		{2, Cluster{Nodes: 4, Bandwidth: 1}, []float64{2, 2, 2}},
		{2, Cluster{Nodes: 4, Bandwidth: 1, Hub: true}, []float64{2, 3, 4}},
		{big, Cluster{Nodes: 4, Bandwidth: big / 2.0}, []float64{2, 2, 2}},
		{big, Cluster{Nodes: 4, Bandwidth: big / 2.0, Hub: true}, []float64{2, 3, 4}},
		{big, Cluster{Nodes: 4, Latency: 2, Hub: true}, []float64{6, 7, 8}},
	} {
		tr := orders{ord(1, 0, 0, 10)}
		for id := int64(2); id <= 4; id++ {
			tr = append(tr, withBytes(ord(id, 1, 0, 1), tt.args, 0))
		}
		_, got := schedules(t, tr, tt.cl, Options{})
		var starts []float64
		for id := int64(2); id <= 4; id++ {
			starts = append(starts, got[id].Start)
		}
		if !slices.Equal(starts, tt.want) {
			t.Errorf("%d bytes, %+v: the orders start at %v, want %v", tt.args, tt.cl, starts, tt.want)
		}
	}
}

// TestProgress: Progress hears of every ProgressEvery orders finished.
func TestProgress(t *testing.T) {
	const depth = 17 // 2^18 - 1 orders
	var got []int64
	r, err := Simulate(openDAC(depth), Cluster{Nodes: 8}, Options{Progress: func(n int64) { got = append(got, n) }})
	if err != nil {
		t.Fatal(err)
	}
	want := []int64{1 * ProgressEvery, 2 * ProgressEvery, 3 * ProgressEvery}
	if r.Orders != dacOrders(depth) || !slices.Equal(got, want) {
		t.Errorf("%d orders, progress %v; want %d, %v", r.Orders, got, dacOrders(depth), want)
	}
}
