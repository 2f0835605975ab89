package ordersim

// Starts ahead (Cluster.Ahead, through a Hub): the runtime's coordinator
// starts up to Ahead orders on each busy core beyond the one it runs
// (orders/pool.go, dispatchAhead). Each start travels to its node while
// the core works, and the node starts the oldest it holds the moment a
// core frees: at an order's end at once, at a suspension once the
// coordinator's release has come back (a round of control), and a start
// still on its way when the core frees holds the core until it comes.
// No order is started ahead on a node with orders waiting to resume
// there, which would otherwise wait for all of them. A node left with a
// free core and nothing to run takes back the newest order started
// ahead on the node holding the most, after a round of control (the
// question and its answer), and starts it as its own. With
// Cluster.AheadMax above Ahead, a node whose order ends before the
// oldest start given ahead to it has come takes one more ahead from then
// on, up to AheadMax per core (starved).

// aheadPerNode is how many orders a busy node may hold started ahead: 0
// without a hub.
func (e *engine) aheadPerNode() int {
	if !e.cl.Hub {
		return 0
	}
	return e.cl.Ahead * e.cl.cores()
}

// takesAhead reports whether node i may be given another order ahead.
func (e *engine) takesAhead(i int32) bool {
	n := &e.nodes[i]
	return n.free() == 0 && n.next.len() < e.aheadPerNode()+n.grown && n.resume.len() == 0
}

// starved notes that an order of node i ended: when the oldest order
// started ahead there has not come yet (the orders take less than the
// round of control), the node takes one more ahead from then on, up to
// Cluster.AheadMax per core, as the runtime's coordinator does
// (orders/pool.go, starved).
func (e *engine) starved(i int32) {
	n := &e.nodes[i]
	most := (e.cl.AheadMax - e.cl.Ahead) * e.cl.cores()
	if n.grown < most && n.next.len() > 0 && e.lives.At(n.next.oldest()).runStart > e.now {
		n.grown++
	}
}

// dispatchAhead gives the busy nodes the new orders they would take next
// by the rule once free: FIFO's head to the node holding the fewest
// (the lowest-numbered among them), the orders placed on each (its
// newest under WorkStealing). It reports whether it gave any.
func (e *engine) dispatchAhead() bool {
	took := false
	if e.sched == FIFO {
		for e.global.len() > 0 {
			i := e.fewestAhead()
			if i < 0 {
				break
			}
			l := e.lives.At(e.global.pop())
			e.giveAhead(l, i, l.argNode())
			took = true
		}
		return took
	}
	for i := range int32(len(e.nodes)) {
		n := &e.nodes[i]
		for e.takesAhead(i) && n.local.len() > 0 {
			var l *live
			if e.sched == WorkStealing {
				l = e.lives.At(n.local.popNewest())
				if n.local.len() == 0 {
					e.dropVictim(i)
				}
			} else {
				l = e.lives.At(n.local.pop())
			}
			e.giveAhead(l, i, i)
			took = true
		}
	}
	return took
}

// fewestAhead returns the node that takes an order ahead holding the
// fewest, the lowest-numbered among them; -1 if none takes one.
func (e *engine) fewestAhead() int32 {
	best := int32(-1)
	for i := range int32(len(e.nodes)) {
		if e.takesAhead(i) && (best < 0 || e.nodes[i].next.len() < e.nodes[best].next.len()) {
			best = i
		}
	}
	return best
}

// giveAhead starts l ahead on node i, its arguments on node src: its
// start reaches i after the coordinator's round of control and the
// arguments' transfer (starting), a moment it keeps in runStart until
// it runs.
func (e *engine) giveAhead(l *live, i, src int32) {
	l.node = i
	l.runStart = e.now + e.starting(l, src, i, e.now)
	e.nodes[i].next.push(l)
}

// startNext starts on a free core of node i the oldest order it holds
// started ahead, once its start and, after a suspension, the release of
// the core have come.
func (e *engine) startNext(i int32) {
	n := &e.nodes[i]
	l := e.lives.At(n.next.pop())
	at := max(l.runStart, n.releaseAt)
	if at <= e.now {
		l.xferIn = 0
		e.begin(l)
		return
	}
	e.hold(l, i, at-e.now)
}

// released notes that a core of node i was freed by an order that waits
// for a result: the orders it holds started ahead wait for the
// coordinator's release (a round of control, sent only when it holds
// any).
func (e *engine) released(i int32) {
	n := &e.nodes[i]
	if n.next.len() > 0 {
		n.releaseAt = e.now + e.control(e.now)
	}
}

// reclaim gives every node with a free core and nothing to run the
// newest order started ahead on the node holding the most, after the
// round of control that takes it back. It reports whether it took any.
func (e *engine) reclaim() bool {
	took := false
	for i := e.free.next(0); i >= 0; i = e.free.next(i + 1) {
		for e.nodes[i].free() > 0 {
			j := e.mostAhead()
			if j < 0 {
				return took
			}
			l := e.lives.At(e.nodes[j].next.popNewest())
			if e.loads != nil {
				e.loads.add(j, -1)
				e.loads.add(int32(i), 1)
			}
			l.node = int32(i)
			back := e.control(e.now)
			e.hold(l, int32(i), back+e.starting(l, l.argNode(), int32(i), e.now+back))
			took = true
		}
	}
	return took
}

// mostAhead returns the node holding the most orders started ahead, the
// lowest-numbered among them; -1 if none holds any.
func (e *engine) mostAhead() int32 {
	best := int32(-1)
	for i := range int32(len(e.nodes)) {
		if k := e.nodes[i].next.len(); k > 0 && (best < 0 || k > e.nodes[best].next.len()) {
			best = i
		}
	}
	return best
}

// aheadBack files again, by the rule, the orders started ahead on node
// i, on which an order is to resume: the runtime asks them back then
// (orders/pool.go, askBackFor), and the order resumes once the core
// frees. FIFO puts them back at the head of its queue, oldest first;
// the other rules place them again as an order whose worker was lost
// (the least loaded node; under work stealing the lowest with a free
// core, else node 0). The simulator takes them back at once, not after
// the round of control the question and its answer take.
func (e *engine) aheadBack(i int32) {
	n := &e.nodes[i]
	for n.next.len() > 0 {
		l := e.lives.At(n.next.popNewest())
		switch e.sched {
		case FIFO:
			e.global.pushFront(l)
		case WorkStealing:
			to := int32(max(e.free.next(0), 0))
			l.node = to
			e.pushOwn(to, l)
		default:
			e.loads.add(i, -1)
			to := e.loads.least()
			e.loads.add(to, 1)
			l.node = to
			e.nodes[to].local.push(l)
			e.markDirty(to)
		}
	}
}
