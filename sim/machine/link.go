package machine

import (
	"cmp"
	"fmt"
	"math"
	"slices"
)

// Link is the one message-cost model of both engines: what a message of
// some bytes between two nodes costs. The DVM engine's clusters hold one
// each (Node.Link: the cluster's TStart and TByte, which sim/network's
// channels price with), the orders engine's cluster one for every pair
// of nodes (Cluster.Link, which sim/ordersim and sim/workspan price
// with).
//
// A message's time is a start-up and a transfer (MessageTime = StartUp +
// Transfer): the latency, and the bytes at the time per byte, or, when
// Messages are given, nothing and the time they measured. The time per
// byte comes in one of two forms, kept as given so that either engine's
// times stay what they were to the last bit: TByte, seconds per byte
// (the DVM's machine files: bytes × TByte), or Bandwidth, bytes per
// second (the orders' cluster files: bytes / Bandwidth). 1/Bandwidth
// rounded is not TByte, nor bytes/Bandwidth bytes × (1/Bandwidth).
type Link struct {
	Latency   float64 // seconds per message (the DVM's TStart)
	TByte     float64 // seconds per byte; 0 with Bandwidth, or when bytes are free
	Bandwidth float64 // bytes per second; 0 with TByte, or when bytes are free
	// Messages, when given, are the times messages of some sizes took
	// (as run mode's network calibration measures them): a message's
	// time follows them piece-wise linearly where one line does not fit.
	// Latency and the time per byte then keep the line fitted to them,
	// for the formulas that need a line (Line) and the reports.
	Messages []MessagePoint
	// Hub says that every message goes through one shared hub, as run
	// mode's worker processes talk through their coordinator's server:
	// over the sender's link to the hub, then the hub's to the receiver,
	// each taking half the message's time, the hub taking one message at
	// a time on each (HubState, one per connection to it). Without it, messages on the link do not
	// slow each other down; the DVM engine's sharing is its clusters'
	// channels (Node.Channels), and its links have no hub.
	Hub bool
	// Relay, through a hub, is the share of a message's time that holds
	// the hub, by size, as run mode's network calibration measures it
	// with many messages in flight (orders.NetworkFit.Relay): the rest of
	// a message's time holds nothing, and other messages overlap it.
	// Without it a message holds the hub for its whole time.
	Relay []MessagePoint
}

// MessagePoint is the time a message of Bytes bytes took.
type MessagePoint struct {
	Bytes   int64   `json:"bytes"`
	Seconds float64 `json:"seconds"`
}

// Free reports whether messages cost nothing on l.
func (l Link) Free() bool {
	return l.Latency == 0 && l.TByte == 0 && l.Bandwidth <= 0 && len(l.Messages) == 0
}

// MessageTime is the time a message of bytes takes on l: its StartUp plus
// its Transfer.
func (l Link) MessageTime(bytes int64) float64 { return l.StartUp() + l.Transfer(bytes) }

// RelayTime returns the time a message of bytes takes on l (MessageTime)
// and its share that holds l's hub (Relay): at most that time, all of
// it when l has no Relay.
func (l Link) RelayTime(bytes int64) (d, held float64) {
	d = l.MessageTime(bytes)
	if len(l.Relay) == 0 {
		return d, d
	}
	return d, min(measured(l.Relay, bytes), d)
}

// StartUp is the part of every message's time that does not depend on
// its size: the latency; 0 with measured Messages, whose times hold it.
func (l Link) StartUp() float64 {
	if len(l.Messages) > 0 {
		return 0
	}
	return l.Latency
}

// Transfer is the part of a message's time that depends on its bytes:
// bytes × TByte, or bytes / Bandwidth, or, with Messages, the line between
// the two points around bytes (below the first, the first's time; beyond
// the last, along the last piece), as SimGrid's piece-wise linear network
// models do. The DVM's channels add StartUp and Transfer to a message's
// begin in that order, as the original adds TStart and n×TByte.
func (l Link) Transfer(bytes int64) float64 {
	if len(l.Messages) > 0 {
		return measured(l.Messages, bytes)
	}
	return l.LineTransfer(bytes)
}

// LineTransfer is the transfer on l's line, bytes × TByte or bytes /
// Bandwidth, which is Transfer when l has no Messages. Small enough to
// be inlined, where Transfer, with its call, is not: a channel's
// message calls it when its link has no points.
func (l Link) LineTransfer(bytes int64) float64 {
	x := float64(bytes)
	if l.Bandwidth > 0 {
		return x / l.Bandwidth
	}
	// The explicit conversion forbids fusing the product into an FMA with
	// the addition that follows, which would round differently from the
	// original's TStart + n*TByte.
	return float64(x * l.TByte)
}

// measured is the time of a message of bytes on the line between the
// points ps around it.
func measured(ps []MessagePoint, bytes int64) float64 {
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

// Line is l as a start-up time and a time per byte, for the formulas of a
// line (the bus, the mesh's pipelining, the ACROSS pipeline, the stored
// run's TStart and TByte): TByte as given, or 1/Bandwidth; with Messages,
// the line fitted to them.
func (l Link) Line() (tstart, tbyte float64) {
	if l.Bandwidth > 0 {
		return l.Latency, 1 / l.Bandwidth
	}
	return l.Latency, l.TByte
}

// Validate reports the first field of l that cannot describe a link.
func (l Link) Validate() error {
	if !TStartRange.Contains(l.Latency) {
		return fmt.Errorf("latency = %v (%s)", l.Latency, TStartRange.Want(1, "seconds"))
	}
	if minBandwidth := 1 / TByteRange.Max; l.Bandwidth != 0 && !(l.Bandwidth >= minBandwidth && !math.IsInf(l.Bandwidth, 1)) {
		return fmt.Errorf("bandwidth = %v (expected a finite number of bytes per second ≥ %v, or 0 for unlimited)", l.Bandwidth, minBandwidth)
	}
	if !TByteRange.Contains(l.TByte) {
		return fmt.Errorf("tbyte = %v (%s)", l.TByte, TByteRange.Want(1, TByteRange.Unit))
	}
	if l.TByte != 0 && l.Bandwidth != 0 {
		return fmt.Errorf("tbyte = %v and bandwidth = %v (expected one form of the time per byte, or neither)", l.TByte, l.Bandwidth)
	}
	if err := validPoints("messages", l.Messages); err != nil {
		return err
	}
	if len(l.Relay) > 0 && !l.Hub {
		return fmt.Errorf("%d relay times without a hub (expected relay only with \"hub\": true)", len(l.Relay))
	}
	return validPoints("relay", l.Relay)
}

// validPoints reports the first of the message times ps, named name, that
// cannot be one of a piece-wise line: none or at least two, of sizes in
// increasing order, of times ≥ 0.
func validPoints(name string, ps []MessagePoint) error {
	if len(ps) == 1 {
		return fmt.Errorf("%s: 1 time (expected none, or at least 2 for the pieces between them)", name)
	}
	for i, p := range ps {
		if err := nonNegative(fmt.Sprintf("%s[%d].seconds", name, i), p.Seconds); err != nil {
			return err
		}
		if p.Bytes < 0 || i > 0 && p.Bytes <= ps[i-1].Bytes {
			return fmt.Errorf("%s[%d].bytes = %d (expected sizes ≥ 0 in increasing order)", name, i, p.Bytes)
		}
	}
	return nil
}

// Link is the message-cost model of cluster n's own messages, between
// its children: its TStart and TByte, as the original prices them, and
// its measured Messages where it has them.
func (n *Node) Link() Link { return Link{Latency: n.TStart, TByte: n.TByte, Messages: n.Messages} }

// HubState is one connection to a hub while messages cross it
// (Link.Hub): its link in, which the messages its end sends take, and
// its link out, which the messages to its end take. A simulation keeps
// one per end: each worker process's connection to the coordinator's
// server, and the coordinator's own, which its rounds of control take in
// and answer on.
type HubState struct{ in, out hubLink }

// RelayBetween returns how long a message of time d (MessageTime) sent
// at start from the end of connection from to the end of connection to
// takes through the hub, empty the time of a message of no bytes: over
// from's link in, then to's link out, each for half its time and behind
// the messages relayed on it before. As the runtime's outboxes batch
// what is sent while a batch leaves (orders/outbox.go), a message that
// finds a batch still waiting for a link goes with it, its start-up paid
// by the batch: it takes d − empty.
func RelayBetween(from, to *HubState, d, empty, start float64) float64 {
	in := from.in.cross(d, empty, start)
	return to.out.cross(d, empty, in) - start
}

// hubLink is one of a hub's links: when the latest batch of messages on
// it leaves, and when the link is free of it.
type hubLink struct{ leaves, free float64 }

// cross returns when a message of time d (empty of it paid once per
// batch) that reaches the link at t has crossed it: at once when the link
// is free, else in a new batch once the link is, or in the batch waiting
// already.
func (l *hubLink) cross(d, empty, t float64) float64 {
	switch {
	case t < l.leaves:
		l.free += max(d-empty, 0) / 2
	case t < l.free:
		l.leaves = l.free
		l.free += d / 2
	default:
		l.leaves, l.free = t, t+d/2
	}
	return l.free
}
