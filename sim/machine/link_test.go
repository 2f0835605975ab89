package machine

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// Messages priced piece-wise: on a point, its time; between two, the
// line between them; below the first, its time; beyond the last, along
// the last piece.
func TestMessageTimeFollowsThePoints(t *testing.T) {
	n := Link{Latency: 9, Bandwidth: 1, Messages: []MessagePoint{{0, 1}, {100, 2}, {1000, 20}}}
	for _, c := range []struct {
		bytes int64
		want  float64
	}{{0, 1}, {50, 1.5}, {100, 2}, {550, 11}, {1000, 20}, {2000, 40}} {
		if got := n.MessageTime(c.bytes); got != c.want {
			t.Errorf("%d bytes: %v s, want %v", c.bytes, got, c.want)
		}
	}
	from10 := Link{Messages: []MessagePoint{{10, 3}, {20, 4}}}
	if got := from10.MessageTime(0); got != 3 {
		t.Errorf("below the first point: %v s, want its 3", got)
	}
	line := Link{Latency: 1, Bandwidth: 10}
	if got := line.MessageTime(20); got != 3 {
		t.Errorf("without points: %v s, want latency + bytes/bandwidth = 3", got)
	}
	if (Link{}).Free() == false || (Link{Messages: n.Messages}).Free() || (Link{TByte: 1e-9}).Free() {
		t.Error("a link is free exactly when it has no latency, time per byte or points")
	}
	// With points, the start-up is in their times: a channel that adds
	// StartUp and Transfer to a begin adds the measured time.
	if n.StartUp() != 0 || n.Transfer(550) != 11 {
		t.Errorf("with points: start-up %v and transfer %v, want 0 and the measured 11", n.StartUp(), n.Transfer(550))
	}
}

// TestLinkKeepsBothForms: a link prices bytes exactly as the engine whose
// form it holds did before the two engines shared it, to the last bit:
// the DVM's channels begin + TStart + n×TByte, the orders' latency +
// n/bandwidth (latency alone when unlimited). The forms are not
// interchangeable: n×(1/bandwidth) differs from n/bandwidth.
func TestLinkKeepsBothForms(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	differ := 0
	for range 100_000 {
		ts, tb := rng.Float64()*1e-3, rng.Float64()*1e-6
		bw := 1 / (rng.Float64()*1e-6 + 1e-12)
		n, begin := rng.Int64N(1<<30), rng.Float64()*100
		dvm := Link{Latency: ts, TByte: tb}
		if got, want := begin+dvm.StartUp()+dvm.Transfer(n), begin+ts+float64(float64(n)*tb); math.Float64bits(got) != math.Float64bits(want) {
			t.Fatalf("TStart %v, TByte %v, %d bytes from %v: %v, want the channel's %v", ts, tb, n, begin, got, want)
		}
		if got, want := dvm.MessageTime(n), ts+float64(float64(n)*tb); math.Float64bits(got) != math.Float64bits(want) {
			t.Fatalf("TStart %v, TByte %v, %d bytes: %v, want %v", ts, tb, n, got, want)
		}
		orders := Link{Latency: ts, Bandwidth: bw}
		if got, want := orders.MessageTime(n), ts+float64(n)/bw; math.Float64bits(got) != math.Float64bits(want) {
			t.Fatalf("latency %v, bandwidth %v, %d bytes: %v, want %v", ts, bw, n, got, want)
		}
		if got := (Link{Latency: ts}).MessageTime(n); math.Float64bits(got) != math.Float64bits(ts) {
			t.Fatalf("latency %v, unlimited bandwidth, %d bytes: %v, want the latency", ts, n, got)
		}
		if _, tbyte := orders.Line(); float64(float64(n)*tbyte) != float64(n)/bw {
			differ++
		}
	}
	if differ == 0 {
		t.Error("n × (1/bandwidth) equalled n / bandwidth every time: one form would do")
	}
}

// TestRelayTime: the share of a message's time that holds the hub
// follows the relay times piece-wise, at most the message's time; all of
// it without them.
func TestRelayTime(t *testing.T) {
	l := Link{Latency: 10, Bandwidth: 1, Hub: true}
	if d, got := l.RelayTime(5); d != 15 || got != 15 {
		t.Errorf("without relay times: %v, want the message's 15", got)
	}
	l.Relay = []MessagePoint{{0, 1}, {10, 3}, {100, 1000}}
	for _, tc := range []struct {
		bytes int64
		want  float64
	}{{0, 1}, {5, 2}, {10, 3}, {50, 60}} { // 50 bytes: 60 s of the message, not the 446.1 its points give
		if _, got := l.RelayTime(tc.bytes); got != tc.want {
			t.Errorf("%d bytes: %v, want %v", tc.bytes, got, tc.want)
		}
	}
}

func TestLinkValidate(t *testing.T) {
	for _, tc := range []struct {
		l    Link
		want string // "": valid
	}{
		{Link{Latency: 1e-5, TByte: 1e-9}, ""},
		{Link{Latency: 1e-5, Bandwidth: 1e9, Hub: true}, ""},
		{Link{TByte: 1e-9, Bandwidth: 1e9}, "one form of the time per byte"},
		{Link{TByte: 2}, "tbyte = 2"},
		{Link{Latency: -1}, "latency = -1"},
		{Link{Messages: []MessagePoint{{0, 1}}}, "messages: 1 time"},
		{Link{Messages: []MessagePoint{{10, 1}, {10, 2}}}, "increasing order"},
		{Link{Latency: 1e-5, Hub: true, Relay: []MessagePoint{{0, 1e-6}, {1024, 2e-6}}}, ""},
		{Link{Latency: 1e-5, Relay: []MessagePoint{{0, 1e-6}, {1024, 2e-6}}}, "without a hub"},
		{Link{Hub: true, Relay: []MessagePoint{{0, -1}, {1, 1}}}, "relay[0].seconds = -1"},
		{Link{Hub: true, Relay: []MessagePoint{{0, 1}}}, "relay: 1 time"},
	} {
		err := tc.l.Validate()
		if tc.want == "" && err != nil || tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)) {
			t.Errorf("%+v: %v, want %q", tc.l, err, tc.want)
		}
	}
}

// TestHubRelays: through a hub a message takes its two links in turn,
// each for half its time, behind the messages relayed before it, and
// goes with the batch that waits for a link when there is one, paying
// only its time beyond an empty message's.
func TestHubRelays(t *testing.T) {
	var h HubState
	for _, tc := range []struct {
		what            string
		d, empty, start float64
		want            float64
	}{
		{"the first message", 2, 1, 0, 2},
		// waits for the link in (free at 1), then the link out (free at
		// 2): a batch of its own on each, in at 2, out at 3
		{"a second at once", 2, 1, 0, 3},
		// goes with the batch that waits for the link in (leaving at 1),
		// its time beyond an empty message's, 2, half on each link: in at
		// 3; the link out is free then: out at 4.5
		{"a third at once", 3, 1, 0, 4.5},
		// goes with that batch too: in at 3.5, when the link out is busy
		// until 4.5: a batch of its own there, out at 5.5
		{"a fourth at once", 2, 1, 0, 5.5},
		// in at 4, with the batch that waits for the link out (leaving at
		// 4.5): out at 6
		{"a fifth at once", 2, 1, 0, 6},
		{"one after the others", 2, 1, 10, 2},
	} {
		if got := RelayBetween(&h, &h, tc.d, tc.empty, tc.start); got != tc.want {
			t.Errorf("%s: %v, want %v", tc.what, got, tc.want)
		}
	}
}

// TestRelayBetweenConnections: a message through the hub takes its
// sender's link in, then its receiver's link out, each connection's
// links taking one message at a time: messages between other
// connections do not wait for them.
func TestRelayBetweenConnections(t *testing.T) {
	var a, b, c, d HubState
	for _, tc := range []struct {
		what     string
		from, to *HubState
		want     float64
	}{
		{"a to b", &a, &b, 2},
		{"c to d, at once: other links", &c, &d, 2},
		// behind a to b on a's link in (free at 1): in at 2; d's link
		// out is free by then (since 2): out at 3
		{"a to d, at once", &a, &d, 3},
		// b's link in is free; c's link out too
		{"b to c, at once", &b, &c, 2},
	} {
		if got := RelayBetween(tc.from, tc.to, 2, 0, 0); got != tc.want {
			t.Errorf("%s: %v, want %v", tc.what, got, tc.want)
		}
	}
}
