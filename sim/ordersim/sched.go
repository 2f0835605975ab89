package ordersim

// place makes order l at e.now; parent is nil for the main order, whose
// arguments are on node 0. made is the link of the parent's stretch that
// led to it, with the critical path (0 otherwise).
func (e *engine) place(l *live, parent *live, made int32) {
	l.state = queued
	t := e.timesOf(l)
	if t != nil {
		t.made, t.ready = e.now, e.now
	}
	src := int32(0)
	l.maker = -1 // main's result goes to nobody
	if parent != nil {
		src = parent.node
		l.maker = aheadTo(src)
		if t != nil {
			pt := e.timesOf(parent)
			t.child = pt.kids
			pt.kids++
		}
		e.links.set(&l.chain, made)
	}
	l.qi = src // its argNode, until it starts
	e.live++
	e.peakLive = max(e.peakLive, e.live)
	switch e.sched {
	case FIFO:
		e.global.push(l)
	case WorkStealing:
		e.pushOwn(src, l)
	default:
		n := e.choose(src, parent != nil)
		e.loads.add(n, 1)
		d := e.starting(l, src, n, e.now)
		l.node, l.xferIn = n, d
		if t != nil {
			t.transfer, t.ready = d, e.now+d
		}
		if d == 0 {
			e.nodes[n].local.push(l)
			e.markDirty(n)
		} else {
			e.ev.push(e.now+d, evArrive, l.idx)
		}
	}
}

// choose is the node LeastLoaded and Locality place an order on.
func (e *engine) choose(src int32, hasParent bool) int32 {
	least := e.loads.least()
	if e.sched == Locality && hasParent && e.loads.load[src] <= e.loads.load[least]+e.opt.slack() {
		return src
	}
	return least
}

// dispatch gives free cores work, once no event of the moment is left:
// first the orders resuming on their node, then new orders by the
// scheduler's rule. It reports whether it started anything.
func (e *engine) dispatch() bool {
	took := false
	for i := e.dirty.next(0); i >= 0; i = e.dirty.next(i + 1) {
		e.dirty.set(i, false)
		n := &e.nodes[i]
		for n.free() > 0 && n.next.len() > 0 {
			e.startNext(int32(i))
			took = true
		}
		for n.free() > 0 && n.resume.len() > 0 {
			e.resume(e.lives.At(n.resume.pop()))
			took = true
		}
		for n.free() > 0 && n.local.len() > 0 {
			e.serveLocal(int32(i))
			took = true
		}
	}
	if !e.opt.Pin && e.migrate() {
		took = true
	}
	switch e.sched {
	case FIFO:
		for e.global.len() > 0 {
			i := e.vacant.next(0)
			if i < 0 {
				i = e.free.next(0)
			}
			if i < 0 {
				break
			}
			l := e.lives.At(e.global.pop())
			e.take(l, int32(i), l.argNode())
			took = true
		}
	case WorkStealing:
		for i := e.free.next(0); i >= 0 && len(e.victims) > 0; i = e.free.next(i) {
			if e.nodes[i].local.len() > 0 {
				e.serveLocal(int32(i))
			} else {
				e.steal(int32(i))
			}
			took = true
		}
	}
	if e.aheadPerNode() > 0 && (e.dispatchAhead() || e.reclaim()) {
		took = true
	}
	return took
}

// migrate resumes the resumable orders in the order their results
// arrived, each on its own node when it has a free core, else on the
// lowest-numbered node with one. It reports whether it resumed any.
func (e *engine) migrate() bool {
	took := false
	for e.resumable.len() > 0 {
		l := e.lives.At(e.resumable.q[e.resumable.head])
		i := l.node
		if e.nodes[i].free() == 0 {
			j := e.free.next(0)
			if j < 0 {
				break
			}
			i = int32(j)
		}
		e.resumable.pop()
		if i != l.node {
			e.move(l, i)
		}
		e.resume(l)
		took = true
	}
	return took
}

// move transfers suspended order l to node i.
func (e *engine) move(l *live, i int32) {
	from := &e.nodes[l.node]
	from.account(e.now)
	from.suspended--
	e.syncFree(l.node)
	to := &e.nodes[i]
	to.account(e.now)
	to.suspended++
	if e.loads != nil {
		e.loads.add(l.node, -1)
		e.loads.add(i, 1)
	}
	l.node = i
}

// serveLocal starts the next order placed on node i: the newest under
// WorkStealing, the oldest otherwise.
func (e *engine) serveLocal(i int32) {
	n := &e.nodes[i]
	if e.sched != WorkStealing {
		e.begin(e.lives.At(n.local.pop()))
		return
	}
	l := e.lives.At(n.local.popNewest())
	if n.local.len() == 0 {
		e.dropVictim(i)
	}
	e.take(l, i, i)
}

// steal takes the oldest order of a victim drawn among the nodes with new
// orders, for node i.
func (e *engine) steal(i int32) {
	v := e.victims[e.rng.Intn(len(e.victims))]
	vn := &e.nodes[v]
	l := e.lives.At(vn.local.pop())
	if vn.local.len() == 0 {
		e.dropVictim(v)
	}
	e.take(l, i, v)
}

// take starts l on node i once its arguments have come from node src,
// holding the core meanwhile.
func (e *engine) take(l *live, i, src int32) {
	l.node = i
	d := e.starting(l, src, i, e.now)
	if d == 0 {
		e.begin(l)
		return
	}
	e.hold(l, i, d)
}

// hold keeps a core of node i for l until its start (and its arguments)
// come, d from now, and starts it then.
func (e *engine) hold(l *live, i int32, d float64) {
	n := &e.nodes[i]
	n.account(e.now)
	n.xferring++
	e.syncFree(i)
	l.xferIn = d
	if t := e.timesOf(l); t != nil {
		t.transfer = d
	}
	e.ev.push(e.now+d, evStart, l.idx)
}

func (e *engine) pushOwn(n int32, l *live) {
	d := &e.nodes[n].local
	if d.len() == 0 {
		e.victimAt[n] = int32(len(e.victims))
		e.victims = append(e.victims, n)
	}
	d.push(l)
	e.markDirty(n)
}

// dropVictim removes node n, whose queue emptied, from the victims.
func (e *engine) dropVictim(n int32) {
	j, last := e.victimAt[n], int32(len(e.victims)-1)
	moved := e.victims[last]
	e.victims[j] = moved
	e.victimAt[moved] = j
	e.victims = e.victims[:last]
}

// syncFree updates the sets of nodes with a free core after a change of
// node i.
func (e *engine) syncFree(i int32) {
	n := &e.nodes[i]
	e.free.set(int(i), n.free() > 0)
	e.vacant.set(int(i), n.free() > 0 && n.suspended == 0)
}
