package network

import (
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/presage-dvm/presage/ingest/machinefile"

	"github.com/presage-dvm/presage/internal/golden"
	"github.com/presage-dvm/presage/sim/machine"
)

func parse(t testing.TB, text string) *machine.Machine {
	t.Helper()
	m, err := machinefile.Parse(strings.NewReader(text), "test.par")
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestWorkedExample is the shadow exchange of docs/model.md Appendix C.
func TestWorkedExample(t *testing.T) {
	n := New(parse(t, "cluster = c; c = {2 x p}; c.TStart = 10; c.TByte = 0.01; p = 1.00;"))
	t0, begin, end := n.Send(0, 1, 8, 0.0011)
	wantT0 := float64(float32(0.0011))
	if t0 != wantT0 || begin != wantT0 {
		t.Fatalf("first send: t0=%v begin=%v, want both %v", t0, begin, wantT0)
	}
	// Variables, not constants: Go folds constant expressions exactly.
	tstart, tbyte, bytes := 10.0, 0.01, 8.0
	tstart, tbyte = tstart/1e6, tbyte/1e6
	if want := wantT0 + tstart + bytes*tbyte; end != want {
		t.Fatalf("first send ends at %v, want %v", end, want)
	}
	t0b, begin2, end2 := n.Send(1, 0, 8, 0.0011)
	if t0b != wantT0 || begin2 != end {
		t.Fatalf("second send: t0=%v begin=%v, want t0=%v begin=%v (queued)", t0b, begin2, wantT0, end)
	}
	if want := end + tstart + bytes*tbyte; end2 != want {
		t.Fatalf("second send ends at %v, want %v", end2, want)
	}
	if cost := end2 - t0; cost < 2.016e-5-1e-15 || cost > 2.016e-5+1e-15 {
		t.Fatalf("cost %v, want 2.016e-5", cost)
	}
}

func TestSendToSelf(t *testing.T) {
	n := New(parse(t, "cluster = c; c = {2 x p}; c.tstart = 10; p = 1;"))
	before := n.Snapshot()
	t0, b, e := n.Send(1, 1, 100, 0.5)
	if t0 != 0.5 || b != 0.5 || e != 0.5 {
		t.Fatalf("send to self = %v %v %v, want 0.5 three times", t0, b, e)
	}
	if !slices.Equal(before, n.Snapshot()) {
		t.Fatal("send to self changed the channels")
	}
}

func TestChannels(t *testing.T) {
	tests := []struct {
		name      string
		commtype  string
		wantBegin float64 // of the second of two simultaneous messages
	}{
		{"one channel queues", "ethernet", 1 + 2e-6 + 100*1e-6},
		{"myrinet (2) does not", "myrinet (2)", 1},
		{"myrinet(2) is one channel", "myrinet(2)", 1 + 2e-6 + 100*1e-6},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			n := New(parse(t, "cluster = c; c = {4 x p}; c.commtype = "+tc.commtype+"; c.tstart = 2; c.tbyte = 1; p = 1;"))
			_, _, e1 := n.Send(0, 1, 100, 1)
			_, b2, _ := n.Send(2, 3, 100, 1)
			if b2 != tc.wantBegin {
				t.Fatalf("second message begins at %v, want %v (first ended at %v)", b2, tc.wantBegin, e1)
			}
		})
	}
}

// TestLeastBusyChannel checks that a message takes the first channel with the
// smallest busy time, not simply the next one.
func TestLeastBusyChannel(t *testing.T) {
	n := New(parse(t, "cluster = c; c = {4 x p}; c.commtype = myrinet (3); c.tstart = 1; p = 1;"))
	n.Send(0, 1, 0, 5)            // channel 0 busy until 5+1e-6
	n.Send(0, 1, 0, 1)            // channel 1 busy until 1+1e-6
	n.Send(0, 1, 0, 3)            // channel 2 busy until 3+1e-6
	_, b, e := n.Send(2, 3, 0, 0) // takes channel 1
	if b != float64(float32(1))+1e-6 {
		t.Fatalf("begin %v, want the end of channel 1", b)
	}
	if got := n.Snapshot(); got[1] != e || got[0] != float64(float32(5))+1e-6 {
		t.Fatalf("channels %v: want channel 1 = %v", got, e)
	}
}

func TestTwoLevels(t *testing.T) {
	m := parse(t, `cluster = mvs; mvs = {3 x node}; mvs.tstart = 7; mvs.tbyte = 0.004;
		node = {2 x cpu}; node.tstart = 1; node.tbyte = 0.001; cpu = 1;`)
	n := New(m)
	if n.Processors() != 6 {
		t.Fatalf("%d processors, want 6", n.Processors())
	}
	links := []struct {
		a, b          int
		tstart, tbyte float64
	}{
		{0, 1, 1e-6, 0.001 / 1e6},
		{4, 5, 1e-6, 0.001 / 1e6},
		{1, 2, 7e-6, 0.004 / 1e6},
		{5, 0, 7e-6, 0.004 / 1e6},
	}
	for _, l := range links {
		ts, tb := n.Link(l.a, l.b)
		if ts != l.tstart || tb != l.tbyte {
			t.Errorf("Link(%d,%d) = %v, %v; want %v, %v", l.a, l.b, ts, tb, l.tstart, l.tbyte)
		}
	}
	// Intra-node messages in different nodes use different channels: no queue.
	_, _, e01 := n.Send(0, 1, 1000, 0)
	_, b23, _ := n.Send(2, 3, 1000, 0)
	if b23 != 0 {
		t.Fatalf("message in node 1 waited for node 0's channel (begin %v)", b23)
	}
	ts, tb, nb := 1.0, 0.001, 1000.0
	if want := ts/1e6 + nb*(tb/1e6); e01 != want {
		t.Fatalf("intra-node end %v, want %v", e01, want)
	}
	// Inter-node messages share the root's single channel.
	_, _, e1 := n.Send(1, 2, 10, 0)
	_, b2, _ := n.Send(3, 4, 10, 0)
	if b2 != e1 {
		t.Fatalf("second inter-node message begins at %v, want %v", b2, e1)
	}
	// ... but not the nodes' channels.
	_, b3, _ := n.Send(1, 0, 10, 0)
	if b3 != e01 {
		t.Fatalf("intra-node message begins at %v, want %v after the first intra-node one", b3, e01)
	}
}

// TestSnapshotRestore checks the original's permutation on a hand-made tree:
// root r (2 channels) holding a (1 channel) and b (2 channels) and a leaf.
func TestSnapshotRestore(t *testing.T) {
	leaf := func() *machine.Node { return &machine.Node{Name: "p", Power: 1} }
	m := &machine.Machine{Root: &machine.Node{Name: "r", Channels: 2, Children: []*machine.Node{
		{Name: "a", Channels: 1, Children: []*machine.Node{leaf(), leaf()}},
		{Name: "b", Channels: 2, Children: []*machine.Node{leaf(), leaf()}},
		leaf(),
	}}}
	n := New(m)
	// Pre-order layout: r0 r1 a0 b0 b1.
	state := []float64{1, 2, 3, 4, 5}
	copy(n.busy, state)
	snap := n.Snapshot()
	if !slices.Equal(snap, state) {
		t.Fatalf("snapshot %v, want pre-order %v", snap, state)
	}
	n.Reset()
	if !slices.Equal(n.Snapshot(), make([]float64, 5)) {
		t.Fatalf("reset left %v", n.Snapshot())
	}
	n.Restore(snap)
	// Restore pops from the end: a0 <- 5, b0 <- 4, b1 <- 3, r0 <- 2, r1 <- 1.
	if got, want := n.Snapshot(), []float64{2, 1, 5, 4, 3}; !slices.Equal(got, want) {
		t.Fatalf("restored %v, want %v", got, want)
	}
}

func TestRestoreSingleChannelIsExact(t *testing.T) {
	n := New(parse(t, "cluster = c; c = {2 x p}; p = 1;"))
	n.Send(0, 1, 8, 1)
	snap := n.Snapshot()
	n.Send(0, 1, 8, 2)
	n.Restore(snap)
	if !slices.Equal(n.Snapshot(), snap) {
		t.Fatalf("restore of one channel changed %v to %v", snap, n.Snapshot())
	}
}

func BenchmarkSend(b *testing.B) {
	machines := []struct{ name, text string }{
		{"mvs-512x2", `cluster = mvs; mvs = {512 x node}; mvs.commtype = myrinet (1); mvs.tstart = 7; mvs.tbyte = 0.004;
			node = {2 x cpu}; node.tstart = 1; node.tbyte = 0.001; cpu = 1;`},
		{"flat-1024-myrinet4", `cluster = c; c = {1024 x p}; c.commtype = myrinet (4); c.tstart = 10; c.tbyte = 0.001; p = 1;`},
		{"deep-4x4x4x4x4", `cluster = a; a = {4 x b}; b = {4 x c}; c = {4 x d}; d = {4 x e}; e = {4 x p}; p = 1;`},
	}
	for _, mc := range machines {
		b.Run(mc.name, func(b *testing.B) {
			n := New(parse(b, mc.text))
			p := n.Processors()
			ts := 0.0
			b.ReportAllocs()
			for i := 0; b.Loop(); i++ {
				a := i % p
				c := (i*7 + 1) % p
				if c == a {
					c = (c + 1) % p
				}
				ts += 1e-6
				n.Send(a, c, 800, ts)
			}
		})
	}
}

func TestRealMachine(t *testing.T) {
	path := golden.Path(t, "machines", "Predictor.par")
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	m, err := machinefile.Parse(f, path)
	if err != nil {
		t.Fatal(err)
	}
	n := New(m)
	if n.Processors() != 1024 || len(n.Snapshot()) != 1+512 {
		t.Fatalf("%d processors, %d channels; want 1024 and 513", n.Processors(), len(n.Snapshot()))
	}
	inner, outer := m.Root.Children[0], m.Root
	for _, l := range []struct {
		a, b int
		want *machine.Node
	}{{0, 1, inner}, {1022, 1023, inner}, {1, 2, outer}, {1023, 0, outer}, {600, 7, outer}} {
		ts, tb := n.Link(l.a, l.b)
		if ts != l.want.TStart || tb != l.want.TByte {
			t.Errorf("Link(%d,%d) = %v, %v; want %v, %v", l.a, l.b, ts, tb, l.want.TStart, l.want.TByte)
		}
	}
}

func TestOneProcessor(t *testing.T) {
	n := New(parse(t, "cluster = c; c = 2;"))
	if n.Processors() != 1 || len(n.Snapshot()) != 0 {
		t.Fatalf("%d processors, %d channels", n.Processors(), len(n.Snapshot()))
	}
	if _, _, e := n.Send(0, 0, 8, 1.5); e != 1.5 {
		t.Fatalf("send to self ends at %v", e)
	}
	n.Restore(n.Snapshot())
	n.Reset()
}

// TestMixedChildren checks the numbering when processors and sub-clusters
// alternate: c = {p, n, q} with n = {2 x p} gives leaves p, n.p, n.p, q.
func TestMixedChildren(t *testing.T) {
	n := New(parse(t, "cluster = c; c = {p, n, q}; c.tstart = 5; n = {2 x p}; n.tstart = 1; p = 1; q = 2;"))
	for _, l := range []struct {
		a, b int
		want float64
	}{{0, 1, 5e-6}, {1, 2, 1e-6}, {2, 1, 1e-6}, {2, 3, 5e-6}, {0, 3, 5e-6}} {
		if ts, _ := n.Link(l.a, l.b); ts != l.want {
			t.Errorf("Link(%d,%d) TStart %v, want %v", l.a, l.b, ts, l.want)
		}
	}
}

func TestClone(t *testing.T) {
	n := New(parse(t, "cluster = c; c = {2 x p}; c.tstart = 1; p = 1;"))
	n.Send(0, 1, 0, 1)
	c := n.Clone()
	if !slices.Equal(c.Snapshot(), n.Snapshot()) {
		t.Fatalf("clone %v, original %v", c.Snapshot(), n.Snapshot())
	}
	c.Send(0, 1, 0, 5)
	if n.Snapshot()[0] == c.Snapshot()[0] {
		t.Fatal("a send on the clone changed the original")
	}
}

// Clone returns an independent channel state of the same machine with the
// same busy times; the machine's structure is shared (it never changes), so
// concurrent simulations each take a Clone cheaply.
func (n *Net) Clone() *Net {
	c := *n
	c.busy = n.Snapshot()
	c.share, c.shared, c.free, c.scratch = nil, nil, nil, nil
	return &c
}

// Reset frees every channel (busy until time 0).
func (n *Net) Reset() {
	n.share, n.shared, n.free = nil, nil, nil
	clear(n.busy)
}

// TestOneMessageCostForBothEngines: a message between two nodes of a
// machine, on a free channel from time 0, takes exactly what the orders
// engine charges on the machine's top level as a cluster
// (machine.Machine.Cluster): both price it with the root's machine.Link.
// Bus and mesh take the same link as a line.
func TestOneMessageCostForBothEngines(t *testing.T) {
	const file = `cluster = mvs; mvs = {4 x node}; mvs.commtype = myrinet (1); mvs.tstart = 7; mvs.tbyte = 0.004;
		node = {2 x cpu}; node.tstart = 1; node.tbyte = 0.001; cpu = 1;`
	oneMessageCost(t, parse(t, file))
	// Measured message times (the extended model) for both levels.
	oneMessageCost(t, parse(t, file+` mvs.messages = 0 : 9, 1024 : 12, 1048576 : 4000; node.messages = 8 : 1.5, 65536 : 60;`))
}

// oneMessageCost is TestOneMessageCostForBothEngines on machine m.
func oneMessageCost(t *testing.T, m *machine.Machine) {
	t.Helper()
	cl := m.Cluster()
	for _, bytes := range []int64{0, 1, 800, 12345, 1 << 20, 123456789} {
		n := New(m)
		_, begin, end := n.Send(0, 7, bytes, 0)
		if want := cl.MessageTime(bytes); begin != 0 || end != want {
			t.Errorf("%d bytes between nodes: %v to %v, want 0 to the orders engine's %v", bytes, begin, end, want)
		}
		if _, _, inNode := n.Send(2, 3, bytes, 0); inNode != m.Root.Children[1].Link().MessageTime(bytes) {
			t.Errorf("%d bytes within a node: %v, want the node's link's %v", bytes, inNode, m.Root.Children[1].Link().MessageTime(bytes))
		}
	}
	for _, kind := range []Kind{Bus, Mesh} {
		n, err := NewModel(m, kind, []int{8})
		if err != nil {
			t.Fatal(err)
		}
		if ts, tb := n.Link(0, 1); ts != cl.Latency || tb != cl.TByte {
			t.Errorf("%s: link %v, %v; want the root's %v, %v", kind, ts, tb, cl.Latency, cl.TByte)
		}
	}
}
