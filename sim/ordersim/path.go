package ordersim

import (
	"cmp"
	"math"
	"slices"

	"github.com/presage-dvm/presage/sim/internal/chunked"
)

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
	chunked.Arena[link]
	meta chunked.Array[linkMeta] // by link number
}

func (a *links) metaOf(i int32) *linkMeta { return a.meta.At(i) }

// add files a new link after prev, held by nobody yet; it holds prev.
func (a *links) add(k link, prev int32) int32 {
	i, p := a.Alloc()
	*p = k
	a.meta.Grow(i)
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
		a.Recycle(i) // add overwrites it whole
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
	return e.links.add(link{order: int64(l.id), node: l.node, proc: l.proc, from: l.runStart, to: t, xfer: l.xferIn}, l.chain)
}

// steps unrolls the chain ending at last, in a run that ended at end,
// into steps from the run's start, naming their procedures from procs;
// it adds the run steps' time to pathTime, by procedure number, when it
// is not nil. With keep > 0 it
// returns only the keep longest steps (of equal lengths, the earlier),
// in path order, with the number of steps of the whole path.
func (a *links) steps(last int32, end float64, procs *names, pathTime []float64, keep int) ([]Step, int) {
	kept := longest{keep: keep}
	if keep > 0 {
		kept.steps = make([]Step, 0, min(keep, 1<<12))
	}
	// One walk, from the last step: a step's Index is -(steps after it)
	// until the walk has counted them all, which orders the steps as
	// their final Index does (Index + n - 1).
	n := 0
	a.walk(last, end, func(s Step, proc int32) {
		s.Index = -n
		n++
		if s.Kind == Exec && pathTime != nil {
			pathTime[proc] += s.End - s.Start
		}
		s.Proc = procs.name(proc)
		kept.offer(s)
	})
	for i := range kept.steps {
		kept.steps[i].Index += n - 1
	}
	slices.SortFunc(kept.steps, func(a, b Step) int { return cmp.Compare(a.Index, b.Index) })
	return kept.steps, n
}

// walk calls f with the steps of the chain ending at last, in a run
// that ended at end, from the last step back to the first, and the
// number of their procedure (Proc is not set). Through a hub the run
// begins with main's start crossing to its node, and ends with main's
// result crossing to the coordinator: transfers before the first link
// and after the last.
func (a *links) walk(last int32, end float64, f func(Step, int32)) {
	if last != 0 {
		if k := a.At(last); end-k.to > 1e-12*max(1, end) {
			f(Step{Kind: Transfer, Order: k.order, Node: int(k.node), Start: k.to, End: end}, k.proc)
		}
	}
	for i := last; i != 0; {
		k := a.At(i)
		prev := a.metaOf(i).prev
		gapStart := 0.0 // before the first link, the run's start
		if prev != 0 {
			gapStart = a.At(prev).to
		}
		// Through a hub, an order that kept its core while a result it
		// requested came began its stretch before the link that
		// provided it ended, and a start may have left before it: the
		// path runs from that end, with only the gap's part of the
		// transfer.
		from := max(k.from, gapStart)
		f(Step{Kind: Exec, Order: k.order, Node: int(k.node), Start: from, End: k.to}, k.proc)
		xfer := min(k.xfer, from-gapStart)
		// Backwards in time: the queue (after the transfer) comes first.
		if q := gapStart + xfer; from-q > 1e-12*max(1, math.Abs(from)) {
			f(Step{Kind: Queue, Order: k.order, Node: int(k.node), Start: q, End: from}, k.proc)
		}
		if xfer > 0 {
			f(Step{Kind: Transfer, Order: k.order, Node: int(k.node), Start: gapStart, End: gapStart + xfer}, k.proc)
		}
		i = prev
	}
}

// longest keeps the keep longest steps offered (every one when keep ≤ 0),
// of equal lengths the earlier (smaller Index), in a heap whose root is
// the one to drop first.
type longest struct {
	steps []Step
	keep  int
}

// worse reports whether step a goes before step b.
func worse(a, b *Step) bool {
	if la, lb := a.End-a.Start, b.End-b.Start; la != lb {
		return la < lb
	}
	return a.Index > b.Index
}

func (h *longest) offer(s Step) {
	st := h.steps
	if h.keep <= 0 || len(st) < h.keep {
		st = append(st, s)
		for i := len(st) - 1; i > 0 && worse(&st[i], &st[(i-1)/2]); i = (i - 1) / 2 {
			st[i], st[(i-1)/2] = st[(i-1)/2], st[i]
		}
		h.steps = st
		return
	}
	if !worse(&st[0], &s) {
		return
	}
	st[0] = s
	for i := 0; ; {
		m := i
		for _, c := range [2]int{2*i + 1, 2*i + 2} {
			if c < len(st) && worse(&st[c], &st[m]) {
				m = c
			}
		}
		if m == i {
			return
		}
		st[i], st[m] = st[m], st[i]
		i = m
	}
}
