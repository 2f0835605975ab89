package ordersim

import (
	"fmt"
	"math"

	"github.com/presage-dvm/presage/orders/ordertrace"
)

// begin starts l's own work on its node's core at e.now.
func (e *engine) begin(l *live) {
	n := &e.nodes[l.node]
	n.account(e.now)
	n.running++
	n.stats.Orders++
	e.syncFree(l.node)
	l.state, l.start, l.runStart, l.own = running, e.now, e.now, 0
	e.nodesUsed = max(e.nodesUsed, int(l.node)+1)
	e.advance(l)
}

// advance plays l's events at its own moment l.own, in the order the
// format prescribes (children made, then requests, then results, then the
// end), and schedules its next moment, unless it suspends or ends.
func (e *engine) advance(l *live) {
	o := l.o
	for {
		k, err := e.kid(l)
		if err != nil {
			e.fail(err)
			return
		}
		if k == nil || k.o.MadeAt > l.own {
			break
		}
		l.nextKid, k.sibling, k.parent = k.sibling, nil, nil
		if l.nextKid == nil {
			l.lastKid = nil
		}
		e.buffered--
		e.place(k, l)
	}
	for ; int(l.qi) < len(o.Requests) && o.Requests[l.qi].At <= l.own; l.qi++ {
		if !e.request(l, o.Requests[l.qi]) {
			return
		}
	}
	for ; int(l.ri) < len(l.results) && l.results[l.ri].At <= l.own; l.ri++ {
		e.provide(l, l.ri)
	}
	if l.own >= o.Duration {
		e.finish(l)
		return
	}
	next := o.Duration
	if k := l.nextKid; k != nil {
		next = math.Min(next, k.o.MadeAt)
	}
	if int(l.qi) < len(o.Requests) {
		next = math.Min(next, o.Requests[l.qi].At)
	}
	if int(l.ri) < len(l.results) {
		next = math.Min(next, l.results[l.ri].At)
	}
	d := (next - l.own) / e.power[l.node]
	l.own = next
	e.ev.push(e.now+d, evStep, l.slot)
}

// request plays l's request r; it reports whether l goes on at once.
func (e *engine) request(l *live, r ordertrace.Request) bool {
	q := e.entries.get(r.Order)
	if q == nil {
		if r.Order < e.nextID {
			e.fail(fmt.Errorf("ordersim: order %d requests order %d once more than counted (expected the same trace on every read)", l.id, r.Order))
			return false
		}
		q = e.newLive(r.Order)
		q.state = unread
	}
	q.reqsLeft--
	if q.state != unread && r.Result >= len(q.results) {
		e.fail(fmt.Errorf("ordersim: order %d requests result %d of order %d, which provides %d", l.id, r.Result, q.id, len(q.results)))
		return false
	}
	if int32(r.Result) < q.provided {
		res := q.results[r.Result]
		at := res.At + e.cl.transfer(q.node, l.node, res.Bytes)
		if q.state == finished && q.reqsLeft == 0 {
			e.drop(q)
		}
		if at <= e.now {
			return true
		}
		l.pendXfer = at - res.At
		if e.path {
			l.pendChain = q.provLink(int32(r.Result))
		}
		e.suspend(l)
		e.ev.push(at, evResume, l.slot)
		return false
	}
	l.waitOn = int32(r.Result)
	l.nextWait, q.waiters = q.waiters, l
	e.suspend(l)
	return false
}

// suspend frees l's core until a result reaches it.
func (e *engine) suspend(l *live) {
	n := &e.nodes[l.node]
	n.account(e.now)
	n.running--
	n.suspended++
	l.state, l.suspendedAt = suspended, e.now
	e.syncFree(l.node)
	e.markDirty(l.node)
}

// resume puts l back on its core after the request it suspended on.
func (e *engine) resume(l *live) {
	n := &e.nodes[l.node]
	n.account(e.now)
	n.running++
	n.suspended--
	e.syncFree(l.node)
	l.state = running
	l.wait += e.now - l.suspendedAt
	l.chain, l.xferIn, l.runStart = l.pendChain, l.pendXfer, e.now
	l.pendChain = nil
	l.qi++
	e.advance(l)
}

// provide makes l's result i available, sending it to every order
// already waiting for it.
func (e *engine) provide(l *live, i int32) {
	l.results[i].At = e.now
	l.provided = i + 1
	var lk *link
	switch {
	case !e.path:
	case l.waiters == nil && int(i) == len(l.results)-1 && l.own == l.o.Duration:
		l.lazyLast = true
	default:
		lk = l.stretch(e.now)
		l.setProvLink(i, lk)
	}
	var kept *live
	for w := l.waiters; w != nil; {
		next := w.nextWait
		if w.waitOn != i {
			w.nextWait, kept = kept, w
		} else {
			w.nextWait = nil
			d := e.cl.transfer(l.node, w.node, l.results[i].Bytes)
			w.pendChain, w.pendXfer = lk, d
			e.ev.push(e.now+d, evResume, w.slot)
		}
		w = next
	}
	l.waiters = kept
}

// finish ends l, frees its core and reports its schedule.
func (e *engine) finish(l *live) {
	n := &e.nodes[l.node]
	n.account(e.now)
	n.running--
	e.syncFree(l.node)
	e.markDirty(l.node)
	if e.loads != nil {
		e.loads.add(l.node, -1)
	}
	l.state = finished
	e.slots.release(l)
	e.orders++
	if e.now >= e.makespan {
		e.makespan = e.now
		if e.path {
			e.last = l.stretch(e.now)
		}
	}
	if e.opt.OnOrder != nil {
		e.opt.OnOrder(OrderResult{ID: l.id, Node: int(l.node), Made: l.made, Ready: l.ready, Start: l.start,
			End: e.now, Wait: l.wait, Transfer: l.transfer})
	}
	l.o = nil
	if l.reqsLeft == 0 {
		e.drop(l)
	}
}

// drop forgets l, finished with all its requests played.
func (e *engine) drop(l *live) {
	e.entries.del(l.id)
	e.live--
}
