package ordersim

import (
	"fmt"

	"github.com/presage-dvm/presage/sim/machine"
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

// Cluster describes the computers an order trace is played on. It is the
// description both engines share (machine.Cluster: the fields, their
// defaults and their checks); this package adds the rules of its own
// model as methods. Times are in the trace's unit (seconds, or "ref"
// units when the trace is in them).
type Cluster machine.Cluster

// Validate reports the first field of c that cannot describe a cluster.
func (c Cluster) Validate() error {
	if err := machine.Cluster(c).Validate(); err != nil {
		return fmt.Errorf("ordersim: %w", err)
	}
	return nil
}

func (c Cluster) cores() int { return machine.Cluster(c).CoresPerNode() }

func (c Cluster) power(node int) float64 { return machine.Cluster(c).NodePower(node) }

// transfer is the time bytes take from node a to node b: nothing on the
// same node, one message otherwise (the network has no contention).
func (c Cluster) transfer(a, b int32, bytes int64) float64 {
	if a == b {
		return 0
	}
	return machine.Cluster(c).MessageTime(bytes)
}
