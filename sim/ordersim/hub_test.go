package ordersim

import (
	"testing"

	"github.com/presage-dvm/presage/orders/ordersched"
	"github.com/presage-dvm/presage/sim/machine"
)

// TestHubRelaysOrdersOfOneNode: through a hub, as the runtime's
// coordinator does, every start and every awaited result takes a round
// of control through it, even on one node. Main (1 s) makes a child of
// 3 s at 0 and waits for it at 1; a message takes 2 s, 1 s on each of
// the hub's links. Without a hub nothing crosses: main ends at 4.
// Through it: main's start arrives at 2, it waits at 3, the child's
// start leaves then and arrives at 5 (the hub's links were busy until 1
// and 2, free since), the child ends at 8, main hears of it at 10 and
// ends, and the coordinator has main's result at 12, which ends the run.
func TestHubRelaysOrdersOfOneNode(t *testing.T) {
	tr := orders{ord(1, 0, 0, 1, rq(2, 1)), ord(2, 1, 0, 3)}
	for _, tt := range []struct {
		hub                  bool
		childStart, makespan float64
	}{
		{false, 1, 4},
		{true, 5, 12},
	} {
		r, got := schedules(t, tr, Cluster{Nodes: 1, Latency: 2, Hub: tt.hub}, Options{})
		if !near(got[2].Start, tt.childStart) || !near(r.Makespan, tt.makespan) {
			t.Errorf("hub %v: the child starts at %v, the run ends at %v; want %v, %v", tt.hub, got[2].Start, r.Makespan, tt.childStart, tt.makespan)
		}
	}
}

// big is a value larger than ordersim sends with the coordinator's
// messages (ordersched.InlineBytes): it goes from node to node.
const big = ordersched.InlineBytes + 1

// TestHubSendsResultsAheadToTheMakerOnly: main (10 s on node 0) makes A
// (1 s) and B (10 s), which requests A's result at its own 5 s, long
// after A ended; a message takes 2 s, a big one 4 s. Without a hub A's
// result reached B's node when A ended, and B ends 10 s after it
// started. Through a hub the node that ran A sent it ahead only to
// main's node, and every message takes two links in turn, half its time
// on each, one at a time: a round of control the coordinator's
// connection's, data the sender's link in and the receiver's link out.
// With big values: main's start arrives at 2; A's control round ends at
// 4 and its arguments, from main's node, reach node 1 at 8; B's round
// queues behind A's (done at 5), its arguments behind A's on node 0's
// link in: B starts at 10; it asks the coordinator at 15, hears at 17
// that A's node has the result, which comes at 21, and ends at 26. With small
// values, which go with the coordinator's messages: the starts carry
// the arguments, B starts at 5, asks at 10, gets the result with the
// answer at 12 and ends at 17. As the runtime's requester of a result
// made already does, B keeps its core while the result comes: node 2 is
// busy from B's start to its end, never waiting.
func TestHubSendsResultsAheadToTheMakerOnly(t *testing.T) {
	for _, tt := range []struct {
		hub   bool
		bytes int64
		bEnd  float64
	}{
		{false, big, 14},
		{true, big, 26},
		{true, 0, 17},
	} {
		tr := orders{ord(1, 0, 0, 10), withBytes(ord(2, 1, 0, 1), tt.bytes, tt.bytes), withBytes(ord(3, 1, 0, 10, rq(2, 5)), tt.bytes, 0)}
		r, got := schedules(t, tr, Cluster{Nodes: 3, Latency: 2, Bandwidth: big / 2.0, Hub: tt.hub}, Options{Pin: true})
		if got[1].Node != 0 || got[2].Node != 1 || got[3].Node != 2 || !near(got[3].End, tt.bEnd) {
			t.Errorf("hub %v, %d bytes: main, A, B on nodes %d, %d, %d, B ends at %v; want 0, 1, 2, %v", tt.hub, tt.bytes, got[1].Node, got[2].Node, got[3].Node, got[3].End, tt.bEnd)
		}
		if b := r.Nodes[2]; b.Waiting != 0 || !near(b.Busy, got[3].End-got[3].Start) {
			t.Errorf("hub %v, %d bytes: node 2 busy %v, waiting %v; want busy for B's %v, never waiting", tt.hub, tt.bytes, b.Busy, b.Waiting, got[3].End-got[3].Start)
		}
	}
}

// TestHubResultGoesAheadToTheMaker: main (1 s on node 0) makes A (2 s on
// node 1, a big result) at 0 and waits for it at 1; a message takes 1
// s, the big result 5 s. Without a hub, main's start is free, A's start
// reaches node 1 at 1, A ends at 3, and its result reaches main at 8.
// Through a hub main's start arrives at 1, A's (with its arguments, which
// are small) at 2, A ends at 4; the coordinator's answer to main comes
// at 5, and the result, sent ahead to main's node when provided, over
// node 1's connection and node 0's, which the answer does not take, at 9
// (fetched after the answer, at 10): main ends at 9, and the coordinator
// has its result, the run's end, at 10.
func TestHubResultGoesAheadToTheMaker(t *testing.T) {
	tr := orders{ord(1, 0, 0, 1, rq(2, 1)), withBytes(ord(2, 1, 0, 2), 0, big)}
	for _, tt := range []struct {
		hub      bool
		makespan float64
	}{
		{false, 8},
		{true, 10},
	} {
		r, got := schedules(t, tr, Cluster{Nodes: 2, Latency: 1, Bandwidth: big / 4.0, Hub: tt.hub}, Options{})
		if got[2].Node != 1 || !near(r.Makespan, tt.makespan) {
			t.Errorf("hub %v: A on node %d, the run ends at %v; want node 1, %v", tt.hub, got[2].Node, r.Makespan, tt.makespan)
		}
	}
}

// TestHubHoldsItsShareOfAMessage: main (1 s on node 0) makes three
// children of 1 s at once, placed on nodes 1 to 3; a message takes 2 s.
// Held by the hub for its whole time, their starts leave one behind the
// other (the third with the second's batch on the link in, in a batch of
// its own on the link out): they arrive 1 s apart. When the hub holds
// only 0.4 s of each (Cluster.Relay) the rest overlaps: 0.2 s apart.
func TestHubHoldsItsShareOfAMessage(t *testing.T) {
	tr := orders{ord(1, 0, 0, 1), ord(2, 1, 0, 1), ord(3, 1, 0, 1), ord(4, 1, 0, 1)}
	for _, tt := range []struct {
		relay  []machine.MessagePoint
		starts [3]float64
	}{
		{nil, [3]float64{4, 5, 6}},
		{[]machine.MessagePoint{{Bytes: 0, Seconds: 0.4}, {Bytes: 1 << 20, Seconds: 0.4}}, [3]float64{4, 4.2, 4.4}},
	} {
		_, got := schedules(t, tr, Cluster{Nodes: 4, Latency: 2, Hub: true, Relay: tt.relay}, Options{Pin: true})
		for i, want := range tt.starts {
			if o := got[int64(i+2)]; o.Node != i+1 || !near(o.Start, want) {
				t.Errorf("relay %v: child %d on node %d starts at %v; want node %d at %v", tt.relay, i+1, o.Node, o.Start, i+1, want)
			}
		}
	}
}
