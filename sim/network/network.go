// Package network owns the DVM engine's networks: how the messages of a
// simulation share the machine's links. What one message costs on a link
// is the one message-cost model of both engines, machine.Link (its
// StartUp and Transfer); this package adds the queues.
//
// Cluster is the original Predictor's model (docs/model.md §2): every composite
// cluster instance of the machine has its own channels, each busy until
// some absolute simulated time, and a message between two processors
// occupies the first least-busy channel of their lowest common cluster for
// its time on that cluster's link (machine.Node.Link: TStart +
// bytes*TByte seconds). The channel state is global for a
// simulation run; Snapshot and Restore reproduce the original's
// save/restore, including its permutation quirk.
//
// Bus and Mesh are the network models of the 2000 design (seed 000
// §4.2-§4.4), with the root cluster's link as a line (TStart and TByte,
// machine.Link.Line): Exchange and
// Reduction give the duration of a whole exchange or reduction from the
// design's formulas (formula.go; docs/networks.md derives them).
package network

import (
	"fmt"

	"github.com/presage-dvm/presage/sim/machine"
)

// Net is the channel state of one machine. Processors are the machine's
// leaves numbered depth-first, left to right (physical ids).
//
// The tree is flattened into arrays indexed by composite node (pre-order):
// each node covers a contiguous range [lo, hi) of leaf ids, so the lowest
// common cluster of a and b is found by walking up from a's parent until the
// range holds b, in at most depth steps and without allocation.
type Net struct {
	kind Kind
	// Bus and mesh: the root cluster's start-up time and time per byte,
	// and the processor grid (for mesh distances).
	ts, tb float64
	grid   []int

	leafParent []int32 // composite node holding each leaf

	parent []int32        // -1 for the root
	lo, hi []int32        // leaf range of each node
	chOff  []int32        // first channel of each node in busy
	chN    []int32        // channels of each node
	link   []machine.Link // of each node: its messages' cost
	busy   []float64      // busy-until time of every channel, nodes in pre-order
	// Channels sharing their busy time (shared.go): share[ch] is the
	// channel's home in shared when the channel is attached to it (≥ 0),
	// detachedFrom(home) when it has left it, homeless otherwise; busy[ch]
	// holds the time of a channel that is not attached. share is nil
	// until some channels share.
	share    []int32
	shared   []sharedTime
	free     []int32   // unused slots of shared
	serial   uint64    // of the last shared time made
	restorer []int32   // Restore: busy[restorer[k]] = snapshot[len-1-k]
	scratch  []float64 // per-message times of SendSpan, reused
}

// New builds the channel state of m with every channel free at time 0.
func New(m *machine.Machine) *Net {
	n := &Net{}
	if m.Root == nil {
		return n
	}
	if m.Root.IsLeaf() {
		// A machine of one processor has no channel; every node array stays
		// empty and every Send is a send to self.
		n.leafParent = []int32{-1}
		return n
	}
	n.add(m.Root, -1)
	n.restorer = make([]int32, 0, len(n.busy))
	n.postOrder(m.Root, 0)
	return n
}

// add appends node x (composite) below parent p and returns its index.
func (n *Net) add(x *machine.Node, p int32) int32 {
	id := int32(len(n.parent))
	ch := x.Channels
	if ch < 1 {
		ch = 1 // machinefile.Parse never yields 0; a hand-made tree might
	}
	n.parent = append(n.parent, p)
	n.lo = append(n.lo, int32(len(n.leafParent)))
	n.hi = append(n.hi, 0)
	n.chOff = append(n.chOff, int32(len(n.busy)))
	n.chN = append(n.chN, int32(ch))
	n.link = append(n.link, x.Link())
	n.busy = append(n.busy, make([]float64, ch)...)
	for _, c := range x.Children {
		if c.IsLeaf() {
			n.leafParent = append(n.leafParent, id)
		} else {
			n.add(c, id)
		}
	}
	n.hi[id] = int32(len(n.leafParent))
	return id
}

// postOrder lists the channels in the order the original's restore assigns
// them: sub-clusters first (left to right), then the node's own channels in
// index order. id is x's pre-order index; it returns the next free index.
func (n *Net) postOrder(x *machine.Node, id int32) int32 {
	next := id + 1
	for _, c := range x.Children {
		if !c.IsLeaf() {
			next = n.postOrder(c, next)
		}
	}
	for k := int32(0); k < n.chN[id]; k++ {
		n.restorer = append(n.restorer, n.chOff[id]+k)
	}
	return next
}

// common returns the lowest common cluster of leaves a != b.
func (n *Net) common(a, b int) int32 {
	if uint(a) >= uint(len(n.leafParent)) || uint(b) >= uint(len(n.leafParent)) {
		panic(fmt.Sprintf("network: processor pair %d, %d out of range [0, %d)", a, b, len(n.leafParent)))
	}
	c := n.leafParent[a]
	b32 := int32(b)
	for b32 < n.lo[c] || b32 >= n.hi[c] {
		c = n.parent[c]
	}
	return c
}

// Send models one message of bytes bytes from processor a to b, issued when
// the sender's clock is ts. It returns the send time as the original uses it
// (ts rounded to single precision), when the transfer begins (after
// waiting for a free channel) and when it ends, and marks the channel busy
// until the end.
//
// A processor never sends to itself in the model (the original dies with a
// channel error); Send(a, a, ...) returns (ts, ts, ts) and changes nothing.
// Processor ids outside [0, Processors()) are a programming error and panic.
func (n *Net) Send(a, b int, bytes int64, ts float64) (t0, begin, end float64) {
	if a == b {
		return ts, ts, ts
	}
	if n.kind != Cluster {
		return n.sendModel(a, b, bytes, ts)
	}
	return n.sendVia(n.common(a, b), bytes, ts)
}

// sendVia is Send(a, b, bytes, ts) of a cluster network given the lowest
// common cluster r of a and b.
func (n *Net) sendVia(r int32, bytes int64, ts float64) (t0, begin, end float64) {
	t0 = float64(float32(ts))
	off, nch := n.chOff[r], n.chN[r]
	k := off
	m := n.busyOf(off)
	for j := off + 1; j < off+nch; j++ {
		if b := n.busyOf(j); b < m {
			m, k = b, j
		}
	}
	begin = later(t0, m)
	// In the original's order: begin + TStart + n*TByte.
	l := &n.link[r]
	var d float64
	if len(l.Messages) == 0 {
		d = l.LineTransfer(bytes) // Transfer, inlined
	} else {
		d = l.Transfer(bytes)
	}
	end = begin + l.StartUp() + d
	n.setBusy(k, end)
	return t0, begin, end
}

// Processors returns the number of processors (leaves).
func (n *Net) Processors() int { return len(n.leafParent) }

// Link returns the TStart and TByte (seconds) of the lowest common cluster
// of processors a and b (of the root cluster for a bus or mesh), its link
// as a line (machine.Link.Line), or zeros when a == b.
func (n *Net) Link(a, b int) (tstart, tbyte float64) {
	if a == b {
		return 0, 0
	}
	if n.kind != Cluster {
		return n.ts, n.tb
	}
	return n.link[n.common(a, b)].Line()
}

// Snapshot returns the busy-until times of all channels in pre-order: a
// cluster's channels in index order, then those of its sub-clusters.
func (n *Net) Snapshot() []float64 {
	snap := make([]float64, len(n.busy))
	for ch := range snap {
		snap[ch] = n.busyOf(int32(ch))
	}
	return snap
}

// Restore sets the channel state from a Snapshot the way the original does:
// it walks sub-clusters first and assigns each cluster's channels in index
// order, taking values from the end of the snapshot. Except on a machine
// with a single one-channel cluster this permutes the busy times between
// sibling clusters and between the channels of a cluster [QUIRK, docs/model.md
// §2]; it is exact when all values are equal (e.g. all 0 between search
// runs). A snapshot of another machine (wrong length) panics.
func (n *Net) Restore(snap []float64) {
	if len(snap) != len(n.busy) {
		panic(fmt.Sprintf("network: snapshot of %d channels restored into a machine of %d", len(snap), len(n.busy)))
	}
	n.dropShares()
	last := len(snap) - 1
	for k, dst := range n.restorer {
		n.busy[dst] = snap[last-k]
	}
}
