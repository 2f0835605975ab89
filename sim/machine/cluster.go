package machine

import (
	"cmp"
	"fmt"
	"math"
	"slices"
)

// Cluster is what both engines mean by a cluster: Nodes computers of Cores
// processors each, of relative Power, joined by a network on which a
// message of b bytes between two nodes takes Latency + b/Bandwidth
// seconds, or, when Messages are given, the time they measured at b. The orders engine plays order traces on it (ordersim.Cluster is
// this type, with its schedulers' rules as methods). The DVM engine's
// machine tree says more (clusters of clusters, channels, a power per
// processor); its top level means the same: the root's children are the
// nodes, their processors the cores, the root's TStart the latency and
// its TByte 1/Bandwidth (an orders run is stored with those names, see
// TByte).
type Cluster struct {
	Nodes int // at least 1
	Cores int // processors (orders run at once) per node; 0 means 1
	// Power scales work: d seconds of work take d/p on a node of power p.
	// Empty means 1 everywhere; one value applies to every node; otherwise
	// one value per node.
	Power     []float64
	Latency   float64 // seconds per message between two nodes (the DVM's TStart)
	Bandwidth float64 // bytes per second between two nodes; 0 means unlimited
	// Messages, when given, are the times messages of some sizes took
	// (as run mode's network calibration measures them): a message's
	// time follows them piece-wise linearly where one line does not fit.
	// Latency and Bandwidth then keep the line fitted to them, for the
	// DVM's terms and the reports.
	Messages []MessagePoint
	// Hub says that every message between two nodes goes through one
	// hub, as run mode's worker processes talk through their
	// coordinator's server: over the sender's link to the hub, then the
	// hub's to the receiver, each taking half the message's time, the
	// hub taking one message at a time on each. Without it, messages do
	// not slow each other down.
	Hub bool
}

// MessagePoint is the time a message of Bytes bytes took.
type MessagePoint struct {
	Bytes   int64   `json:"bytes"`
	Seconds float64 `json:"seconds"`
}

// Network is the part of a Cluster that prices a message between two
// nodes.
type Network struct {
	Latency   float64
	Bandwidth float64
	Messages  []MessagePoint
}

// Network returns c's network.
func (c Cluster) Network() Network {
	return Network{Latency: c.Latency, Bandwidth: c.Bandwidth, Messages: c.Messages}
}

// Free reports whether messages cost nothing on n.
func (n Network) Free() bool { return n.Latency == 0 && n.Bandwidth <= 0 && len(n.Messages) == 0 }

// MessageTime is the time a message of bytes takes between two nodes:
// the latency plus the bytes at the bandwidth, as the DVM's TStart +
// bytes × TByte; with Messages, the line between the two points around
// bytes (below the first, the first's time; beyond the last, along the
// last piece), as SimGrid's piece-wise linear network models do.
func (n Network) MessageTime(bytes int64) float64 {
	if len(n.Messages) > 0 {
		return n.measured(bytes)
	}
	if n.Bandwidth <= 0 {
		return n.Latency
	}
	return n.Latency + float64(bytes)/n.Bandwidth
}

func (n Network) measured(bytes int64) float64 {
	ps := n.Messages
	i, _ := slices.BinarySearchFunc(ps, bytes, func(p MessagePoint, b int64) int { return cmp.Compare(p.Bytes, b) })
	switch {
	case i == 0:
		return ps[0].Seconds
	case i == len(ps):
		i-- // along the last piece
	}
	a, b := ps[i-1], ps[i]
	t := a.Seconds + (b.Seconds-a.Seconds)*float64(bytes-a.Bytes)/float64(b.Bytes-a.Bytes)
	return max(t, 0)
}

// Validate reports the first field of n that cannot describe a network.
func (n Network) Validate() error {
	if !TStartRange.Contains(n.Latency) {
		return fmt.Errorf("latency = %v (%s)", n.Latency, TStartRange.Want(1, "seconds"))
	}
	if minBandwidth := 1 / TByteRange.Max; n.Bandwidth != 0 && !(n.Bandwidth >= minBandwidth && !math.IsInf(n.Bandwidth, 1)) {
		return fmt.Errorf("bandwidth = %v (expected a finite number of bytes per second ≥ %v, or 0 for unlimited)", n.Bandwidth, minBandwidth)
	}
	if len(n.Messages) == 1 {
		return fmt.Errorf("1 message time (expected none, or at least 2 for the pieces between them)")
	}
	for i, p := range n.Messages {
		if err := nonNegative(fmt.Sprintf("messages[%d].seconds", i), p.Seconds); err != nil {
			return err
		}
		if p.Bytes < 0 || i > 0 && p.Bytes <= n.Messages[i-1].Bytes {
			return fmt.Errorf("messages[%d].bytes = %d (expected sizes ≥ 0 in increasing order)", i, p.Bytes)
		}
	}
	return nil
}

// Validate reports the first field of c that cannot describe a cluster.
func (c Cluster) Validate() error {
	if c.Nodes < 1 {
		return fmt.Errorf("cluster of %d nodes (expected at least 1)", c.Nodes)
	}
	if c.Cores < 0 {
		return fmt.Errorf("%d cores per node (expected at least 1, or 0 for 1)", c.Cores)
	}
	if len(c.Power) > 1 && len(c.Power) != c.Nodes {
		return fmt.Errorf("%d power values for %d nodes (expected 1 or one per node)", len(c.Power), c.Nodes)
	}
	for i, p := range c.Power {
		if !PowerRange.Contains(p) {
			return fmt.Errorf("power[%d] = %v (%s)", i, p, PowerRange.Want(1, PowerRange.Unit))
		}
	}
	return c.Network().Validate()
}

func nonNegative(name string, v float64) error {
	if !(v >= 0) || math.IsInf(v, 0) {
		return fmt.Errorf("%s = %v (expected a finite number ≥ 0)", name, v)
	}
	return nil
}

// CoresPerNode is Cores with its default: 0 means 1.
func (c Cluster) CoresPerNode() int {
	if c.Cores == 0 {
		return 1
	}
	return c.Cores
}

// NodePower is the power of node i (0-based).
func (c Cluster) NodePower(i int) float64 {
	switch len(c.Power) {
	case 0:
		return 1
	case 1:
		return c.Power[0]
	}
	return c.Power[i]
}

// MessageTime is the time a message of bytes takes between two nodes
// (Network.MessageTime).
func (c Cluster) MessageTime(bytes int64) float64 { return c.Network().MessageTime(bytes) }

// TByte is the bandwidth in the DVM's terms, seconds per byte: 0 when
// unlimited, as a DVM machine without a per-byte time.
func (c Cluster) TByte() float64 {
	if c.Bandwidth == 0 {
		return 0
	}
	return 1 / c.Bandwidth
}

// Cluster is the top level of m as a Cluster: the root's children are
// the nodes (a root whose children are processors is one node), their
// processors the cores, each node's power the mean of its processors',
// the root's TStart the latency and 1/TByte the bandwidth.
func (m *Machine) Cluster() Cluster {
	c := Cluster{Nodes: 1, Cores: m.Processors()}
	if m.Root == nil || m.Root.IsLeaf() {
		c.Power = []float64{meanPower(m.Root)}
		return c
	}
	nodes := []*Node{m.Root}
	if !m.Root.Children[0].IsLeaf() {
		nodes = m.Root.Children
		c.Nodes, c.Cores = len(nodes), m.Processors()/len(nodes)
	}
	same := true
	for i, n := range nodes {
		c.Power = append(c.Power, meanPower(n))
		same = same && c.Power[i] == c.Power[0]
	}
	if same {
		c.Power = c.Power[:1]
	}
	c.Latency = m.Root.TStart
	if m.Root.TByte > 0 {
		c.Bandwidth = 1 / m.Root.TByte
	}
	return c
}

// meanPower is the mean power of the processors under n.
func meanPower(n *Node) float64 {
	if n == nil {
		return 0
	}
	if n.IsLeaf() {
		return n.Power
	}
	sum, count := 0.0, 0
	var walk func(*Node)
	walk = func(n *Node) {
		if n.IsLeaf() {
			sum += n.Power
			count++
			return
		}
		for _, ch := range n.Children {
			walk(ch)
		}
	}
	walk(n)
	return sum / float64(count)
}
