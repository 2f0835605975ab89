package ordersim

import "testing"

// TestHubRelaysOrdersOfOneNode: through a hub, as the runtime's
// coordinator does, every start and every awaited result crosses it,
// even on one node. Main (1 s) makes a child of 3 s at 0 and waits for
// it at 1; a message takes 2 s, 1 s on each of the hub's links. Without
// a hub nothing crosses: main ends at 4. Through it: main's start
// arrives at 2, it waits at 3, the child's start leaves then and
// arrives at 5 (the hub's links were busy until 1 and 2, free since),
// the child ends at 8, its result reaches main at 10.
func TestHubRelaysOrdersOfOneNode(t *testing.T) {
	tr := orders{ord(1, 0, 0, 1, rq(2, 1)), ord(2, 1, 0, 3)}
	for _, tt := range []struct {
		hub                  bool
		childStart, makespan float64
	}{
		{false, 1, 4},
		{true, 5, 10},
	} {
		r, got := schedules(t, tr, Cluster{Nodes: 1, Latency: 2, Hub: tt.hub}, Options{})
		if !near(got[2].Start, tt.childStart) || !near(r.Makespan, tt.makespan) {
			t.Errorf("hub %v: the child starts at %v, the run ends at %v; want %v, %v", tt.hub, got[2].Start, r.Makespan, tt.childStart, tt.makespan)
		}
	}
}

// TestHubSendsResultsAheadToTheMakerOnly: main (10 s on node 0) makes A
// (1 s) and B (10 s), which requests A's result at its own 5 s, long
// after A ended; a message takes 2 s. Without a hub A's result reached
// B's node when A ended: B does not wait and ends at 12. Through a hub
// the runtime sent it ahead only to main's node: B fetches it when it
// asks, at 10 (main's start arrived at 2, A's at 4, B's at 5), gets it
// at 12 and ends at 17.
func TestHubSendsResultsAheadToTheMakerOnly(t *testing.T) {
	tr := orders{ord(1, 0, 0, 10), ord(2, 1, 0, 1), ord(3, 1, 0, 10, rq(2, 5))}
	for _, tt := range []struct {
		hub  bool
		bEnd float64
	}{
		{false, 12},
		{true, 17},
	} {
		_, got := schedules(t, tr, Cluster{Nodes: 3, Latency: 2, Hub: tt.hub}, Options{Pin: true})
		if got[1].Node != 0 || got[2].Node != 1 || got[3].Node != 2 || !near(got[3].End, tt.bEnd) {
			t.Errorf("hub %v: main, A, B on nodes %d, %d, %d, B ends at %v; want 0, 1, 2, %v", tt.hub, got[1].Node, got[2].Node, got[3].Node, got[3].End, tt.bEnd)
		}
	}
}
