package ordersim

import "math"

// link is one run stretch of the critical path as the simulation builds
// it: order ran on node from from to to, after a gap since prev's to of
// which xfer was a transfer and the rest queueing. Links are immutable and
// shared: every live order holds the chain that led to its current
// stretch. Their prev is kept in links.meta.
type link struct {
	order    int64
	from, to float64
	xfer     float64
	node     int32
	proc     int32 // the order's procedure, by number
}

// linkMeta is what links needs to free a link: the number of
// references to it and the link before it.
type linkMeta struct {
	refs, prev int32
}

// links is the arena of the critical path's links. It counts the
// references to each (from orders, from later links, from the engine's
// last stretch), so a link goes back to the arena as soon as nothing can
// extend its chain: memory follows the live orders. The counts and the
// chaining are kept apart, densely: most counts change long after their
// link was made, when the link has left the cache, while the rest of a
// link is read only to report the critical path.
type links struct {
	arena[link]
	meta []*[1 << chunkBits]linkMeta // by link number, in chunks as the arena's
}

func (a *links) metaOf(i int32) *linkMeta { return &a.meta[i>>chunkBits][i&(1<<chunkBits-1)] }

// add files a new link after prev, held by nobody yet; it holds prev.
func (a *links) add(k link, prev int32) int32 {
	i, p := a.alloc()
	*p = k
	if int(i>>chunkBits) == len(a.meta) {
		a.meta = append(a.meta, new([1 << chunkBits]linkMeta))
	}
	*a.metaOf(i) = linkMeta{prev: prev}
	a.hold(prev)
	return i
}

func (a *links) hold(i int32) {
	if i != 0 {
		a.metaOf(i).refs++
	}
}

// let drops a reference to link i, freeing the links nothing holds any
// more.
func (a *links) let(i int32) {
	for i != 0 {
		m := a.metaOf(i)
		m.refs--
		if m.refs > 0 {
			return
		}
		a.recycle(i) // add overwrites it whole
		i = m.prev
	}
}

// set makes *ref hold link i instead of the one it held.
func (a *links) set(ref *int32, i int32) {
	a.hold(i)
	a.let(*ref)
	*ref = i
}

// stretch files the link of l's run from its current start to t.
func (e *engine) stretch(l *live, t float64) int32 {
	return e.links.add(link{order: l.id, node: l.node, proc: l.proc, from: l.runStart, to: t, xfer: l.xferIn}, l.chain)
}

// steps unrolls the chain ending at last into steps from the first,
// naming their procedures from procs; it adds the run steps' time to
// pathTime, by procedure number, when it is not nil.
func (a *links) steps(last int32, procs *names, pathTime []float64) []Step {
	n := 0 // links in the chain: each makes a run step, some a queue and a transfer too
	for i := last; i != 0; i = a.metaOf(i).prev {
		n++
	}
	rev := make([]Step, 0, n)
	for i := last; i != 0; {
		k := a.at(i)
		proc := procs.name(k.proc)
		if pathTime != nil {
			pathTime[k.proc] += k.to - k.from
		}
		rev = append(rev, Step{Kind: Exec, Order: k.order, Proc: proc, Node: int(k.node), Start: k.from, End: k.to})
		prev := a.metaOf(i).prev
		if prev == 0 {
			break
		}
		// Backwards in time: the queue (after the transfer) comes first.
		gapStart := a.at(prev).to
		if q := gapStart + k.xfer; k.from-q > 1e-12*max(1, math.Abs(k.from)) {
			rev = append(rev, Step{Kind: Queue, Order: k.order, Proc: proc, Node: int(k.node), Start: q, End: k.from})
		}
		if k.xfer > 0 {
			rev = append(rev, Step{Kind: Transfer, Order: k.order, Proc: proc, Node: int(k.node), Start: gapStart, End: gapStart + k.xfer})
		}
		i = prev
	}
	for i, j := 0, len(rev)-1; i < j; i, j = i+1, j-1 {
		rev[i], rev[j] = rev[j], rev[i]
	}
	return rev
}
