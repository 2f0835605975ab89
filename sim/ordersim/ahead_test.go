package ordersim

import (
	"slices"
	"testing"
)

// TestStartsAheadRunBackToBack: through a hub, main (on node 0) makes 12
// children of 3 s at once and waits for the last; a message takes 1 s. A
// core that frees waits a round of control for its next start without
// orders started ahead (Cluster.Ahead); with one or two ahead, each
// start is on its node before the order before it ends (a round takes 2
// s), so that every child after the first two of a node starts the
// moment the one before it ends there, and the run is shorter.
func TestStartsAheadRunBackToBack(t *testing.T) {
	tr := orders{ord(1, 0, 0, 1, rq(13, 0))}
	for id := int64(2); id <= 13; id++ {
		tr = append(tr, ord(id, 1, 0, 3))
	}
	var makespans []float64
	for _, ahead := range []int{0, 1, 2} {
		r, got := schedules(t, tr, Cluster{Nodes: 2, Latency: 1, Hub: true, Ahead: ahead}, Options{Pin: true})
		makespans = append(makespans, r.Makespan)
		if ahead == 0 {
			continue
		}
		byNode := map[int][]OrderResult{}
		for id := int64(2); id <= 13; id++ {
			byNode[got[id].Node] = append(byNode[got[id].Node], got[id])
		}
		for node, kids := range byNode {
			slices.SortFunc(kids, func(a, b OrderResult) int { return int(a.Start - b.Start) })
			for k := 2; k < len(kids); k++ {
				if !near(kids[k].Start, kids[k-1].End) {
					t.Errorf("ahead %d: on node %d, child %d starts at %v, the one before it ended at %v; want back to back", ahead, node, kids[k].ID, kids[k].Start, kids[k-1].End)
				}
			}
		}
	}
	if !(makespans[1] < makespans[0] && near(makespans[2], makespans[1])) {
		t.Errorf("makespans with 0, 1 and 2 orders ahead: %v; want the first the longest, the others equal", makespans)
	}
}

// TestStartsAheadGrow: through a hub, main (on the one node) makes 40
// children of 0.6 s at once and waits for the last; a message takes 1 s.
// With one start ahead, the next start reaches the node 1 s after the
// one before it began there, and the core waits 0.4 s after every other
// child; a node that may come to hold 8 (Cluster.AheadMax) takes one
// more after its first wait, and its children run back to back from then
// on: shorter than with 1 throughout, never shorter than with 8
// throughout.
func TestStartsAheadGrow(t *testing.T) {
	tr := orders{ord(1, 0, 0, 1, rq(41, 0))}
	for id := int64(2); id <= 41; id++ {
		tr = append(tr, ord(id, 1, 0, 0.6))
	}
	makespan := func(ahead, most int) float64 {
		r, _ := schedules(t, tr, Cluster{Nodes: 1, Latency: 1, Hub: true, Ahead: ahead, AheadMax: most}, Options{Pin: true})
		return r.Makespan
	}
	one, grows, eight := makespan(1, 0), makespan(1, 8), makespan(8, 0)
	if !(grows < one-2 && grows >= eight-1e-9) {
		t.Errorf("makespans with 1 ahead %v, 1 growing to 8 %v, 8 %v: want the growing one shorter than with 1 by more than 2 s, and no shorter than with 8", one, grows, eight)
	}
}

// TestFreeNodeTakesBackAnOrderStartedAhead: through a hub (a message
// takes 1 s), main (20 s on node 0) makes A (1 s) and B (12 s) at once,
// which go to the free nodes 1 and 2, then C (1 s), which goes ahead
// (Ahead 1) to the busy node holding the fewest, the lowest-numbered:
// node 0, busy with main for 20 s. Node 1, free once A ends, takes C
// back rather than leave it behind main.
func TestFreeNodeTakesBackAnOrderStartedAhead(t *testing.T) {
	tr := orders{ord(1, 0, 0, 20), ord(2, 1, 0, 1), ord(3, 1, 0, 12), ord(4, 1, 0, 1)}
	_, got := schedules(t, tr, Cluster{Nodes: 3, Latency: 1, Hub: true, Ahead: 1}, Options{Pin: true})
	if c := got[4]; c.Node != 1 || c.End >= 20 {
		t.Errorf("C ran on node %d, from %v to %v; want it taken back by node 1, ended long before main's 20 s", c.Node, c.Start, c.End)
	}
}

// TestOrdersAheadMakeWayForAResume: through a hub (a message takes 1 s),
// main (on node 0) makes A (1 s), then four children of 5 s, and waits
// for A at its own 0.5. A runs on node 1, and the four children go
// ahead, two on each node; once A's result comes back, main is to resume
// on node 0, whose children started ahead go elsewhere (FIFO's head), so
// that main resumes once the child running on node 0 ends, not after the
// two there.
func TestOrdersAheadMakeWayForAResume(t *testing.T) {
	tr := orders{ord(1, 0, 0, 1, rq(2, 0.5)), ord(2, 1, 0, 1)}
	for id := int64(3); id <= 6; id++ {
		tr = append(tr, ord(id, 1, 0, 5))
	}
	_, got := schedules(t, tr, Cluster{Nodes: 2, Latency: 1, Hub: true, Ahead: 2}, Options{Pin: true})
	var firstOn0 float64 = -1
	for id := int64(3); id <= 6; id++ {
		if c := got[id]; c.Node == 0 && (firstOn0 < 0 || c.Start < firstOn0) {
			firstOn0 = c.Start
		}
	}
	if m := got[1]; firstOn0 < 0 || m.End > firstOn0+5+1+1e-9 {
		t.Errorf("main ends at %v, the first child on node 0 started at %v; want main resumed once that child ended (its 0.5 s left)", m.End, firstOn0)
	}
}
