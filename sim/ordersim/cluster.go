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

// Through a hub (Cluster.Hub) the simulator follows the runtime's
// coordinator (orders/coordinator.go), which places the orders and hears
// of their ends, while their data goes straight from node to node
// (docs/orders.md, "Direct transfers"):
//
//   - control is a message to the coordinator and its answer (an
//     order's making or the end that frees a core, then its start; an
//     end, then the answer to the order waiting for it; a request, then
//     its answer): a message of no bytes, which queues on the
//     coordinator's connection to the hub, where it takes one at a time;
//   - direct is data from one node to another, a message of its bytes
//     through the hub too: the coordinator does not handle it, but its
//     server relays it from the sender's connection to the receiver's,
//     each taking one message at a time, beside the coordinator's;
//   - small data (ordersched.InlineBytes at most) goes with the
//     coordinator's messages instead: a round of control that carries
//     it is a message of its bytes through the hub.

// control returns how long the coordinator's round of messages begun at
// start takes.
func (e *engine) control(start float64) float64 { return e.message(0, start) }

// direct returns how long bytes sent at start take from node from to
// node to, through the hub from one's connection to the other's.
func (e *engine) direct(from, to int32, bytes int64, start float64) float64 {
	if e.freeNet {
		return 0
	}
	return e.relay(&e.conns[from], &e.conns[to], bytes, start)
}

// starting returns how long order l, placed at start on node n, takes to
// start there once placed: its arguments come from node src, its
// maker's. Through a hub, main's start is one message from the
// coordinator, with its arguments, and so is the round of control of an
// order whose arguments are small (the coordinator hears of its making,
// or of the end that frees the core, and starts it); another order's is
// a round of control, then its arguments from src when n is another node
// (they are there already otherwise). Without a hub it is transfer.
func (e *engine) starting(l *live, src, n int32, start float64) float64 {
	switch {
	case !e.cl.Hub:
		return e.transfer(src, n, l.argBytes(), start)
	case l.maker < 0 || inline(l.argBytes()):
		return e.message(l.argBytes(), start)
	case src == n:
		return e.control(start)
	}
	d := e.control(start)
	return d + e.direct(src, n, l.argBytes(), start+d)
}

// resuming returns how long order w, waiting for result res of order q,
// provided at start, takes to get it. Through a hub the coordinator
// hears of the end and answers w; the result is on w's node when q ran
// there, on its way when that is the node of q's maker (sent ahead when
// provided), and otherwise comes with the end and the answer when small,
// from q's node after the answer when not. Without a hub it is transfer.
func (e *engine) resuming(q, w *live, res *ordertrace.Result, start float64) float64 {
	if !e.cl.Hub {
		return e.transfer(q.node, w.node, res.Bytes, start)
	}
	d := e.control(start)
	switch {
	case w.node == q.node:
		return d
	case int32(q.maker) == w.node:
		return max(d, e.direct(q.node, w.node, res.Bytes, start))
	case inline(res.Bytes):
		return e.message(res.Bytes, start)
	}
	return d + e.direct(q.node, w.node, res.Bytes, start+d)
}

// answered returns how long main's result, from its end, takes to reach
// the coordinator through the hub, which ends a run in worker processes
// (orders/session.go, runCluster): a message of its bytes.
func (e *engine) answered(main *live) float64 {
	var bytes int64
	for i := range e.nres(main) {
		bytes += e.res(main, i).Bytes
	}
	return e.message(bytes, e.now)
}

// inline reports whether a value of bytes goes with the coordinator's
// messages in the runtime (ordersched.InlineBytes).
func inline(bytes int64) bool { return bytes <= ordersched.InlineBytes }

// arrival returns when result res of order q, provided, reaches order l
// that requests it: sent from q's node when it was provided. Through a
// hub it is there at once on q's node, sent ahead to the node of q's
// maker when provided, and elsewhere comes with the coordinator's answer
// when small, from q's node after it when not.
func (e *engine) arrival(q, l *live, res ordertrace.Result) float64 {
	if !e.cl.Hub {
		return res.At + e.transfer(q.node, l.node, res.Bytes, res.At)
	}
	switch {
	case q.node == l.node:
		return res.At
	case int32(q.maker) == l.node:
		return res.At + e.direct(q.node, l.node, res.Bytes, res.At)
	case inline(res.Bytes):
		return e.now + e.message(res.Bytes, e.now)
	}
	d := e.control(e.now)
	return e.now + d + e.direct(q.node, l.node, res.Bytes, e.now+d)
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

// message returns how long a message of bytes sent at start takes
// between two nodes: its time, except through a hub (Cluster.Hub), where
// it is the coordinator's (relay).
func (e *engine) message(bytes int64, start float64) float64 {
	if e.freeNet {
		return 0
	}
	if !e.cl.Hub {
		return e.net.MessageTime(bytes)
	}
	return e.relay(&e.hub, &e.hub, bytes, start)
}

// relay returns how long a message of bytes sent at start takes through
// the hub from connection from to connection to: their links in turn
// for its share of its time that holds the hub (machine.Link.RelayTime),
// half on each, behind the messages asked for before it and batched
// with those that wait for a link as it does (machine.RelayBetween); the
// rest of its time holds nothing.
func (e *engine) relay(from, to *machine.HubState, bytes int64, start float64) float64 {
	d, held := e.net.RelayTime(bytes)
	return machine.RelayBetween(from, to, held, e.emptyRelay, start) + d - held
}
