package ordersim

import (
	"fmt"

	"github.com/presage-dvm/presage/sim/machine"
	"github.com/presage-dvm/presage/sim/ordersched"
)

// Scheduler names the rule that places orders on nodes: one of
// package ordersched, the list the runtime follows too.
type Scheduler = ordersched.Name

// The schedulers (docs/orders-sim.md, "Schedulers"), as package ordersched
// defines them. Run mode (package orders) follows the same rules.
const (
	FIFO         = ordersched.FIFO
	LeastLoaded  = ordersched.LeastLoaded
	WorkStealing = ordersched.WorkStealing
	Locality     = ordersched.Locality
)

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

// transfer returns how long bytes sent from node a to node b at start
// take to arrive: nothing on the same node, else the message's time,
// except through a hub (Cluster.Hub), whose two links it takes in turn,
// each for half its time and behind the messages asked for before it.
func (e *engine) transfer(a, b int32, bytes int64, start float64) float64 {
	if a == b || e.freeNet {
		return 0
	}
	d := e.net.MessageTime(bytes)
	if !e.cl.Hub {
		return d
	}
	in := max(start, e.hubIn) + d/2
	out := max(in, e.hubOut) + d/2
	e.hubIn, e.hubOut = in, out
	return out - start
}
