package machine

import (
	"fmt"
	"math"
)

// Cluster is what both engines mean by a cluster: Nodes computers of Cores
// processors each, of relative Power, every two nodes joined by one Link
// (Latency, TByte or Bandwidth, Messages, Hub, Relay: Cluster.Link). The orders engine
// plays order traces on it (ordersim.Cluster is this type, with its
// schedulers' rules as methods). The DVM engine's machine tree says more
// (clusters of clusters, channels, a power per processor); its top level
// means the same: the root's children are the nodes, their processors
// the cores, the root's Link the one between nodes (Machine.Cluster).
type Cluster struct {
	Nodes int // at least 1
	Cores int // processors (orders run at once) per node; 0 means 1
	// Power scales work: d seconds of work take d/p on a node of power p.
	// Empty means 1 everywhere; one value applies to every node; otherwise
	// one value per node.
	Power []float64
	// The link between two nodes (Link): its start-up time, seconds (the
	// DVM's TStart); its time per byte, as seconds per byte (the DVM's
	// TByte) or as a bandwidth, bytes per second, at most one of them, 0
	// for unlimited; the measured times of messages; whether messages
	// cross one hub, and the share of a message's time the hub holds.
	Latency   float64
	TByte     float64
	Bandwidth float64
	Messages  []MessagePoint
	Hub       bool
	Relay     []MessagePoint
	// OrderCost and WaitCost are the orders runtime's own time on a
	// node's core per order and per wait that suspends, seconds, as
	// network mode timed them on worker processes (orders.NetworkFit): the
	// orders engine charges them in place of the trace's
	// (ordersim.RuntimeCosts), which one process timed, on the core an
	// order or a wait leaves. 0 and 0 leave the trace's. The DVM engine
	// runs no orders and has no use for them.
	OrderCost, WaitCost float64
	// Ahead is how many orders the runtime's coordinator starts on a
	// busy core beyond the one it runs (orders.Config.Ahead), through a
	// Hub only: its node starts one the moment the core frees, without
	// the round of messages through the coordinator. 0 means none, as
	// in a cluster file that names none. AheadMax, when above Ahead, is
	// how many a core may come to hold: one more each time its order
	// ends before the oldest start given ahead to it has come (the
	// runtime's default, orders.MaxAhead); 0 means Ahead throughout.
	Ahead, AheadMax int
}

// Link is the message-cost model between two nodes of c.
func (c Cluster) Link() Link {
	return Link{Latency: c.Latency, TByte: c.TByte, Bandwidth: c.Bandwidth, Messages: c.Messages, Hub: c.Hub, Relay: c.Relay}
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
	if err := nonNegative("order_cost", c.OrderCost); err != nil {
		return err
	}
	if err := nonNegative("wait_cost", c.WaitCost); err != nil {
		return err
	}
	if c.Ahead < 0 {
		return fmt.Errorf("ahead = %d (expected orders started ahead on a busy core, 0 or more)", c.Ahead)
	}
	if c.AheadMax != 0 && c.AheadMax < c.Ahead {
		return fmt.Errorf("ahead_max = %d (expected the most orders started ahead on a busy core, at least ahead = %d, or 0 for ahead)", c.AheadMax, c.Ahead)
	}
	return c.Link().Validate()
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
// (Link.MessageTime).
func (c Cluster) MessageTime(bytes int64) float64 { return c.Link().MessageTime(bytes) }

// Cluster is the top level of m as a Cluster: the root's children are
// the nodes (a root whose children are processors is one node), their
// processors the cores, each node's power the mean of its processors',
// the root's link the link between nodes, TStart and TByte as they are.
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
	c.Latency, c.TByte, c.Messages = m.Root.TStart, m.Root.TByte, m.Root.Messages
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
