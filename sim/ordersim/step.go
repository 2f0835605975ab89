package ordersim

import (
	"fmt"
	"math"

	"github.com/presage-dvm/presage/sim/internal/requeststore"
	"github.com/presage-dvm/presage/sim/ordertrace"
)

// begin starts l's own work on its node's core at e.now.
func (e *engine) begin(l *live) {
	n := &e.nodes[l.node]
	n.account(e.now)
	n.running++
	e.running++
	n.stats.Orders++
	e.syncFree(l.node)
	l.state, l.runStart, l.own = running, e.now, 0
	l.qi = 0 // no longer its argNode: the next request
	if t := e.timesOf(l); t != nil {
		t.start = e.now
	}
	if e.opt.ByProc {
		l.madeAt = e.now // no longer read: the order is made
		l.setWait(0)     // the arguments have moved
	}
	e.nodesUsed = max(e.nodesUsed, int(l.node)+1)
	if e.slow != nil {
		e.onCore(l, true)
	}
	e.goOn(l, e.runtime.Order)
}

// goOn lets l, just given a core, play its events, after the runtime's
// own cost on that core when it has one.
func (e *engine) goOn(l *live, cost float64) {
	if cost == 0 {
		e.advance(l)
		return
	}
	seq := e.ev.push(e.now+cost/e.power[l.node], evStep, l.idx)
	if e.slow != nil {
		e.stepOf(l.idx).seq = seq
	}
}

// advance plays l's events at its own moment l.own, in the order the
// format prescribes (children made, then requests, then results, then the
// end), and schedules its next moment, unless it suspends or ends.
func (e *engine) advance(l *live) {
	made := int32(0) // the link of l's stretch up to now, shared by the children it makes now
	for {
		more, err := e.hasKid(l)
		if err != nil {
			e.fail(err)
			return
		}
		if !more || l.kidAt > l.own {
			break
		}
		e.buffered--
		if e.path && made == 0 {
			made = e.stretch(l, e.now)
		}
		e.place(e.popKid(l), l, made)
	}
	for ; l.reqAt <= l.own; e.nextRequest(l) {
		if !e.request(l, e.currentRequest(l)) {
			return
		}
	}
	for ri := e.count(l, played); ri < e.nres(l) && e.res(l, ri).At <= l.own; ri++ {
		e.provide(l, ri)
		e.setCount(l, played, ri+1)
	}
	if l.own >= l.duration {
		e.finish(l)
		return
	}
	next := min(l.duration, l.reqAt) // the builtin: math.Min is not inlined (3% of a master-worker simulation)
	if l.nextKid != 0 {
		next = min(next, l.kidAt)
	}
	if ri := e.count(l, played); ri < e.nres(l) {
		next = min(next, e.res(l, ri).At)
	}
	if e.slow != nil {
		e.stepTo(l, next)
		return
	}
	d := (next - l.own) / e.power[l.node]
	l.own = next
	e.ev.push(e.now+d, evStep, l.idx)
}

// request plays l's request r; it reports whether l goes on at once.
func (e *engine) request(l *live, r ordertrace.Request) bool {
	var q *live
	if qi := e.entries.Get(r.Order); qi != 0 {
		q = e.lives.At(qi)
	} else {
		if r.Order < e.nextID {
			e.fail(fmt.Errorf("ordersim: order %d requests order %d once more than counted (expected the same trace on every read)", l.id, r.Order))
			return false
		}
		if r.Order > math.MaxUint32 {
			e.fail(fmt.Errorf("ordersim: order %d requests order %d (expected at most %d orders)", l.id, r.Order, uint32(math.MaxUint32)))
			return false
		}
		q = e.newLive(r.Order)
	}
	q.reqsLeft--
	if r.Result < 0 {
		e.fail(fmt.Errorf("ordersim: order %d requests result %d of order %d (expected an index ≥ 0)", l.id, r.Result, q.id))
		return false
	}
	if q.state != unread && r.Result >= int(e.nres(q)) {
		e.fail(fmt.Errorf("ordersim: order %d requests result %d of order %d, which provides %d", l.id, r.Result, q.id, e.nres(q)))
		return false
	}
	if int32(r.Result) < e.count(q, provided) {
		res := *e.res(q, int32(r.Result))
		at := e.arrival(q, l, res)
		if at > e.now {
			l.xferIn = at - res.At
			if e.path {
				e.links.set(&l.chain, e.provLink(q, int32(r.Result)))
			}
		}
		if q.state == finished && q.reqsLeft == 0 {
			e.drop(q)
		}
		if at <= e.now {
			return true
		}
		if e.cl.Hub {
			// The runtime's requester of a result made already keeps its
			// core until the result comes (orders/node.go, get): it goes
			// on, with its next request, at the arrival.
			e.nextRequest(l)
			seq := e.ev.push(at, evStep, l.idx)
			if e.slow != nil {
				e.stepOf(l.idx).seq = seq
			}
			return false
		}
		e.suspend(l)
		e.ev.push(at, evResume, l.idx)
		return false
	}
	l.waitOn = int32(r.Result)
	l.nextWait, q.waiters = q.waiters, l.idx
	// The result's provider will set l's chain (provide): drop the one l
	// holds now, while its links are likely still in the cache, rather
	// than long after, and let them go as soon as nothing else needs them.
	e.links.let(l.chain)
	l.chain = 0
	e.suspend(l)
	return false
}

// suspend frees l's core until a result reaches it.
func (e *engine) suspend(l *live) {
	n := &e.nodes[l.node]
	n.account(e.now)
	n.running--
	e.running--
	if e.slow != nil {
		e.onCore(l, false)
	}
	n.suspended++
	l.state = suspended
	if t := e.timesOf(l); t != nil {
		t.suspendedAt = e.now
		if e.opt.OnOrder != nil {
			t.stretches = append(t.stretches, Stretch{Node: int(l.node), Start: l.runStart, End: e.now})
		}
	}
	if e.opt.ByProc {
		l.runStart = e.now // the moment it suspended, for its wait: unread otherwise until it resumes
	}
	e.occupy(l.node, e.after.Wait)
	e.released(l.node)
	e.syncFree(l.node)
	e.markDirty(l.node)
}

// occupy keeps a core of node busy for the runtime's own cost, an order
// or a wait that has just left it (Cluster.OrderCost, WaitCost): the CPU
// that the processes of a run in worker processes spend on an order,
// which its messages' times do not hold up but the next order on the
// core waits for.
func (e *engine) occupy(node int32, cost float64) {
	if cost == 0 {
		return
	}
	e.nodes[node].runtime++
	e.ev.push(e.now+cost/e.power[node], evFreed, node)
}

// freed ends a core's runtime work (occupy). Work left when every order
// has ended is not the run's, which ended with them.
func (e *engine) freed(node int32) {
	n := &e.nodes[node]
	end := e.now
	if e.orders == e.trace.counts.Orders() {
		end = min(end, e.makespan)
	}
	n.account(end)
	n.runtime--
	e.syncFree(node)
	e.markDirty(node)
}

// resume puts l back on its core after the request it suspended on.
func (e *engine) resume(l *live) {
	n := &e.nodes[l.node]
	n.account(e.now)
	n.running++
	e.running++
	n.suspended--
	e.syncFree(l.node)
	l.state = running
	if t := e.timesOf(l); t != nil {
		t.wait += e.now - t.suspendedAt
	}
	if e.opt.ByProc {
		l.setWait(l.wait() + (e.now - l.runStart))
	}
	l.runStart = e.now // after l.xferIn, since the chain its request set
	if e.slow != nil {
		e.onCore(l, true)
	}
	e.nextRequest(l)
	e.goOn(l, e.runtime.Wait)
}

// provide makes l's result i available, sending it to every order
// already waiting for it.
func (e *engine) provide(l *live, i int32) {
	res := e.res(l, i)
	res.At = e.now
	e.setCount(l, provided, i+1)
	var lk int32
	switch {
	case !e.path:
	case l.waiters == 0 && i == e.nres(l)-1 && l.own == l.duration:
		l.flags |= lazyLast
	default:
		lk = e.stretch(l, e.now)
		e.links.set(e.provSlot(l, i), lk)
	}
	var kept int32
	for wi := l.waiters; wi != 0; {
		w := e.lives.At(wi)
		next := w.nextWait
		if w.waitOn != i {
			w.nextWait, kept = kept, wi
		} else {
			w.nextWait = 0
			d := e.resuming(l, w, res, e.now)
			e.links.set(&w.chain, lk)
			w.xferIn = d
			e.ev.push(e.now+d, evResume, wi)
		}
		wi = next
	}
	l.waiters = kept
}

// finish ends l, frees its core and reports its schedule.
func (e *engine) finish(l *live) {
	n := &e.nodes[l.node]
	n.account(e.now)
	n.running--
	e.running--
	if e.slow != nil {
		e.onCore(l, false)
	}
	e.occupy(l.node, e.after.Order)
	n.releaseAt = 0 // its node starts the next order started ahead by itself
	e.starved(l.node)
	e.syncFree(l.node)
	e.markDirty(l.node)
	if e.loads != nil {
		e.loads.add(l.node, -1)
	}
	l.state = finished
	e.orders++
	if e.orders%ProgressEvery == 0 {
		if e.opt.Progress != nil {
			e.opt.Progress(e.orders)
		}
		if err := e.stopped(); err != nil {
			e.fail(err)
		}
	}
	if e.now >= e.makespan {
		e.makespan = e.now
		if e.path {
			e.links.set(&e.last, e.stretch(l, e.now))
		}
	}
	if e.cl.Hub && l.id == 1 {
		e.makespan = max(e.makespan, e.now+e.answered(l))
	}
	if e.opt.ByProc {
		e.sumProc(l)
	}
	if t := e.timesOf(l); t != nil {
		t.stretches = append(t.stretches, Stretch{Node: int(l.node), Start: l.runStart, End: e.now})
		e.opt.OnOrder(OrderResult{ID: int64(l.id), Proc: e.procs.name(l.proc), Parent: t.parent, Child: int(t.child),
			Node: int(l.node), Made: t.made, Ready: t.ready, Start: t.start,
			End: e.now, Wait: t.wait, Transfer: t.transfer, Stretches: t.stretches})
	}
	e.requests.Release(l.reqs) // its requests are all played
	l.reqs = requeststore.List{}
	if l.reqsLeft == 0 {
		e.drop(l)
	}
}

// drop forgets l, finished with all its requests played, and gives its
// entry back to the arena.
func (e *engine) drop(l *live) {
	e.entries.Delete(int64(l.id))
	e.live--
	e.links.let(l.chain)
	if l.has(multi) {
		for _, k := range e.extraOf(l).prov {
			e.links.let(k)
		}
		e.extras.Release(int32(l.res0.Bytes))
	} else {
		e.links.let(l.prov0)
	}
	e.lives.Release(l.idx)
}
