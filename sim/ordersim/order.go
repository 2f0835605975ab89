package ordersim

import (
	"fmt"
	"math"

	"github.com/presage-dvm/presage/sim/internal/requeststore"
	"github.com/presage-dvm/presage/sim/ordertrace"
)

// state is where a live order is in its life.
type state uint8

const (
	gone      state = iota // not an order: a free entry of the engine's arena
	unread                 // requested before its line was read
	pending                // read, not yet made by its parent
	queued                 // made, waiting for a core (or its arguments)
	running                // on a core
	suspended              // waiting for a result, its core freed
	resumable              // the result arrived; waiting for a core of its node
	finished
)

// live is an order the simulation holds: from when its line is read (or
// it is first requested) until it has finished and its last request has
// been played. It lives in the engine's arena and names other orders and
// links by their numbers there (0 for none); it copies from its line
// what the simulation needs, so that the line can go once read. Its
// fields are ordered by size, and packed into 152 bytes: a FIFO
// simulation of a divide and conquer or a pipeline holds nearly every
// order at once, and on this project's machines each byte of fresh
// memory costs more than the simulation's own work on it
// (docs/orders-sim.md, "Memory"). The schedule reported to
// Options.OnOrder is kept apart, in times.
type live struct {
	own      float64 // the own moment it is at (or stepping to, while running)
	madeAt   float64 // the parent's own moment that makes it; once it runs, with ByProc, the moment it started
	duration float64
	// argsOrWait is the bytes of the order's arguments until it starts
	// (argBytes), then, with ByProc, the time it has waited so far (wait):
	// nothing reads the arguments' size once they have moved, and the
	// wait kept in the entry spares a finishing order's sums a visit to
	// an array beside the arena, a cache miss for every order when they
	// finish out of the arena's order, as under work stealing (5% of a
	// 10M-order simulation).
	argsOrWait uint64

	// reqs are the order's requests (in the engine's requests), qi
	// the next to play, due at reqAt (+Inf when none is left), kept here
	// to spare a visit to reqs.
	reqs  requeststore.List
	reqAt float64

	// res0 is the order's result when it has one; with several (flag
	// multi), res0.Bytes holds the number of their extra.
	res0 ordertrace.Result

	xferIn, runStart float64 // see chain

	// Children read and not yet made form a queue, in order of making,
	// linked by sibling; kidsLeft is the number not yet read, reqsLeft
	// the number of requests naming the order not yet played: when it
	// has finished and none is left, the order is dropped.
	// kidAt is the next child's madeAt, kept here because the child's
	// entry, read long before, is out of the cache.
	kidAt                     float64
	nextKid, lastKid, sibling int32
	kidsLeft, reqsLeft        uint32

	id uint32 // ids count up from 1: readNext refuses a trace of more orders than a uint32 counts
	// qi is the next request to play (see reqs) once the order has
	// started; until then, the node its arguments are on (argNode).
	qi   int32
	idx  int32 // its own number in the arena, which names it in events and queues
	node int32 // -1 until placed
	proc int32 // its procedure's number in the engine's names; kept only with the critical path, the schedules or the sums

	// The order's results are res0, or those of its extra (flag multi);
	// once provided, At holds the moment of the simulated run instead of
	// the own moment. How many it has, provided and played are flags
	// when it has one, in its extra otherwise.
	waitOn   int32 // which result of the order waited on
	waiters  int32 // suspended on one of its results, linked by nextWait
	nextWait int32

	// The critical path: the chain that led to the current run stretch,
	// which started at runStart after xferIn of transfer (the rest of the
	// gap was queueing). A suspended order does not run, so the request
	// it waits on sets them at once, for the stretch it resumes; with
	// ByProc, runStart holds meanwhile the moment it suspended.
	// prov0 is the stretch that provided the first result (extra holds
	// those of the others). Each is a counted reference to a link.
	chain int32
	prov0 int32

	state state
	flags flags
	// maker is the node of the order that made it (aheadTo), in the
	// entry's last two bytes, which alignment leaves free.
	maker int16
}

// flags are what a live order knows in a bit.
type flags uint8

const (
	lazyLast  flags = 1 << iota // the last result's link is made when needed
	multi                       // several results, in the order's extra
	provided1                   // one result, provided
	played1                     // one result, played: its moment is past
)

func (l *live) has(f flags) bool { return l.flags&f != 0 }

// argNode returns the node l's arguments are on, until it starts.
func (l *live) argNode() int32 { return l.qi }

// times is the schedule of an order, kept beside the arena only for
// Options.OnOrder: the simulation itself never reads it, and leaving it
// out keeps a live order small. (The sums of ByProc need
// no more than its start, kept in live.madeAt, and its wait, in
// live.argsOrWait.)
type times struct {
	made, ready, start, suspendedAt float64
	wait, transfer                  float64
	parent                          int64
	child                           int32 // its place among its parent's children
	kids                            int32 // the children it has made so far
	// stretches are those it ran so far; the entry's next order reuses
	// their memory.
	stretches []Stretch
}

// timesOf returns the schedule of l, nil when nobody wants it.
func (e *engine) timesOf(l *live) *times {
	if !e.track {
		return nil
	}
	e.times.Grow(l.idx)
	return e.times.At(l.idx)
}

// argBytes returns the bytes of l's arguments, until it starts.
func (l *live) argBytes() int64 { return int64(l.argsOrWait) }

// wait returns the time l has waited so far, once started, with ByProc.
func (l *live) wait() float64 { return math.Float64frombits(l.argsOrWait) }

func (l *live) setWait(w float64) { l.argsOrWait = math.Float64bits(w) }

// extra holds what an order with several results needs.
type extra struct {
	results []ordertrace.Result
	prov    []int32  // links, as live.prov0
	counts  [2]int32 // by resultCount
}

// extraOf returns the extra of l, which has several results.
func (e *engine) extraOf(l *live) *extra { return e.extras.At(int32(l.res0.Bytes)) }

// res returns l's result i.
func (e *engine) res(l *live, i int32) *ordertrace.Result {
	if !l.has(multi) {
		return &l.res0
	}
	return &e.extraOf(l).results[i]
}

// nres returns the number of l's results, once its line is read.
func (e *engine) nres(l *live) int32 {
	if !l.has(multi) {
		return 1
	}
	return int32(len(e.extraOf(l).results))
}

// resultCount names a count of an order's results kept as it goes.
type resultCount int

const (
	provided resultCount = iota // results provided
	played                      // results whose moment is past: the next to play
)

// countFlag is each count's flag, for an order with one result.
var countFlag = [...]flags{provided: provided1, played: played1}

// count returns count c of l's results.
func (e *engine) count(l *live, c resultCount) int32 {
	switch {
	case l.has(multi):
		return e.extraOf(l).counts[c]
	case l.has(countFlag[c]):
		return 1
	}
	return 0
}

// setCount sets count c of l's results to n.
func (e *engine) setCount(l *live, c resultCount, n int32) {
	if l.has(multi) {
		e.extraOf(l).counts[c] = n
	} else {
		l.flags |= countFlag[c]
	}
}

// provSlot returns where l keeps the link of the stretch that provided
// result i.
func (e *engine) provSlot(l *live, i int32) *int32 {
	if !l.has(multi) {
		return &l.prov0
	}
	return &e.extraOf(l).prov[i]
}

// provLink returns the stretch that provided result i. A result
// provided at the end of the order, with nobody waiting, gets its link
// only when a request needs it: the order's chain does not change after
// its end.
func (e *engine) provLink(l *live, i int32) int32 {
	if l.has(lazyLast) && i == e.nres(l)-1 {
		l.flags &^= lazyLast
		e.links.set(e.provSlot(l, i), e.stretch(l, e.res(l, i).At))
	}
	return *e.provSlot(l, i)
}

// setRequests files the requests of l's line.
func (e *engine) setRequests(l *live, r []ordertrace.Request) {
	l.reqs, l.qi = e.requests.Add(r), 0
	l.reqAt = math.Inf(1)
	if len(r) > 0 {
		l.reqAt = r[0].At
	}
}

// currentRequest returns the request l plays next.
func (e *engine) currentRequest(l *live) ordertrace.Request { return e.requests.Get(l.reqs, l.qi) }

// nextRequest moves on to l's next request.
func (e *engine) nextRequest(l *live) {
	l.qi++
	l.reqAt = math.Inf(1)
	if l.qi < l.reqs.Len() {
		l.reqAt = e.requests.Get(l.reqs, l.qi).At
	}
}

// addKid appends k to l's children to make.
func (e *engine) addKid(l, k *live) {
	if l.nextKid == 0 {
		l.nextKid, l.kidAt = k.idx, k.madeAt
	} else {
		e.lives.At(l.lastKid).sibling = k.idx
	}
	l.lastKid = k.idx
}

// hasKid reports whether l makes another child, reading lines until that
// child's, at l.nextKid.
func (e *engine) hasKid(l *live) (bool, error) {
	for l.nextKid == 0 && l.kidsLeft > 0 {
		if e.eof {
			return false, fmt.Errorf("ordersim: the trace ended before the %d children left of order %d (expected the same trace on every read)", l.kidsLeft, l.id)
		}
		if err := e.readNext(); err != nil {
			return false, err
		}
	}
	return l.nextKid != 0, nil
}

// popKid removes from l's children to make the next one, and returns it.
func (e *engine) popKid(l *live) *live {
	k := e.lives.At(l.nextKid)
	l.nextKid, k.sibling = k.sibling, 0
	if l.nextKid == 0 {
		l.lastKid = 0
	} else {
		l.kidAt = e.lives.At(l.nextKid).madeAt
	}
	return k
}
