package ordersim

import (
	"fmt"
	"math"
)

// Scheduler names the rule that places orders on nodes.
type Scheduler string

// The schedulers (docs/orders-sim.md, "Schedulers").
const (
	// FIFO keeps one queue of new orders for the whole cluster; a free
	// core takes its head, the lowest-numbered free node first. The
	// arguments move when the order is taken. Run mode follows this rule.
	FIFO Scheduler = "fifo"
	// LeastLoaded places an order when it is made on the node with the
	// fewest unfinished orders (lowest number among equals); the
	// arguments move at once and the order joins that node's queue.
	LeastLoaded Scheduler = "least-loaded"
	// WorkStealing pushes a new order on its parent's node; a node runs
	// its newest order first and, when it has none, steals the oldest of
	// a victim drawn from the seeded generator among nodes with orders.
	WorkStealing Scheduler = "work-stealing"
	// Locality places an order on its parent's node, which holds its
	// arguments, unless that node has more than LocalitySlack unfinished
	// orders above the least loaded node; then it places it as LeastLoaded.
	Locality Scheduler = "locality"
)

// Schedulers lists every scheduler, for flags and sweeps.
var Schedulers = []Scheduler{FIFO, LeastLoaded, WorkStealing, Locality}

// Cluster describes the computers an order trace is played on. Times are
// in the trace's unit (seconds, or "ref" units when the trace is in them).
type Cluster struct {
	Nodes int // at least 1
	Cores int // orders a node runs at once; 0 means 1
	// Power scales work: an own-time stretch d takes d/p on a node of
	// power p. Empty means 1 everywhere; one value applies to every
	// node; otherwise one value per node.
	Power     []float64
	Latency   float64 // seconds per message between two nodes
	Bandwidth float64 // bytes per second between two nodes; 0 means unlimited
}

// Validate reports the first field of c that cannot describe a cluster.
func (c Cluster) Validate() error {
	if c.Nodes < 1 {
		return fmt.Errorf("ordersim: cluster of %d nodes (expected at least 1)", c.Nodes)
	}
	if c.Cores < 0 {
		return fmt.Errorf("ordersim: %d cores per node (expected at least 1, or 0 for 1)", c.Cores)
	}
	if len(c.Power) > 1 && len(c.Power) != c.Nodes {
		return fmt.Errorf("ordersim: %d power values for %d nodes (expected 1 or one per node)", len(c.Power), c.Nodes)
	}
	for i, p := range c.Power {
		if !(p > 0) || math.IsInf(p, 0) {
			return fmt.Errorf("ordersim: power[%d] = %v (expected a finite number > 0)", i, p)
		}
	}
	if err := nonNegative("latency", c.Latency); err != nil {
		return err
	}
	return nonNegative("bandwidth", c.Bandwidth)
}

func nonNegative(name string, v float64) error {
	if !(v >= 0) || math.IsInf(v, 0) {
		return fmt.Errorf("ordersim: %s = %v (expected a finite number ≥ 0)", name, v)
	}
	return nil
}

func (c Cluster) cores() int {
	if c.Cores == 0 {
		return 1
	}
	return c.Cores
}

func (c Cluster) power(node int) float64 {
	switch len(c.Power) {
	case 0:
		return 1
	case 1:
		return c.Power[0]
	}
	return c.Power[node]
}

// transfer is the time bytes take from node a to node b: nothing on the
// same node, one message otherwise.
func (c Cluster) transfer(a, b int32, bytes int64) float64 {
	if a == b {
		return 0
	}
	if c.Bandwidth == 0 {
		return c.Latency
	}
	return c.Latency + float64(bytes)/c.Bandwidth
}
