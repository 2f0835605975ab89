package ordersim

import (
	"fmt"
	"math"

	"github.com/presage-dvm/presage/orders/ordersched"
	"github.com/presage-dvm/presage/sim/machine"
	"github.com/presage-dvm/presage/sim/ordertrace"
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
// take to arrive when they go straight there (a result requested once it
// is ready, sent ahead to the node that asks for it): nothing on the same
// node, else the message's time.
func (e *engine) transfer(a, b int32, bytes int64, start float64) float64 {
	if a == b {
		return 0
	}
	return e.message(bytes, start)
}

// arrival returns when result res of order q, provided, reaches order l
// that requests it: sent from q's node when it was provided, except
// through a hub to a node other than that of q's maker, where the
// runtime sends a result ahead (orders/coordinator.go, sendAhead): it
// is there only once l, requesting it, has fetched it from the
// coordinator, a message from now.
func (e *engine) arrival(q, l *live, res ordertrace.Result) float64 {
	if e.cl.Hub && q.node != l.node && int32(q.maker) != l.node {
		return e.now + e.message(res.Bytes, e.now)
	}
	return res.At + e.transfer(q.node, l.node, res.Bytes, res.At)
}

// aheadTo returns node as an order's maker (live.maker), -1 (no node)
// beyond the nodes two bytes number: a result is then taken as never
// sent ahead.
func aheadTo(node int32) int16 {
	if node > math.MaxInt16 {
		return -1
	}
	return int16(node)
}

// relay returns how long bytes sent from node a to node b at start take
// to arrive when the hub relays them: through a hub the runtime's
// coordinator starts every order and hands every awaited result to the
// order waiting for it (orders/coordinator.go), so the arguments of an
// order started on its maker's node, and a result awaited on its
// producer's node, cross the hub too. Without a hub it is transfer.
func (e *engine) relay(a, b int32, bytes int64, start float64) float64 {
	if a == b && !e.cl.Hub {
		return 0
	}
	return e.message(bytes, start)
}

// message returns how long a message of bytes sent at start takes
// between two nodes: its time, except through a hub (Cluster.Hub), whose
// two links it takes in turn, each for half its time and behind the
// messages asked for before it.
func (e *engine) message(bytes int64, start float64) float64 {
	if e.freeNet {
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
