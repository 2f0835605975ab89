package ordersim

import (
	"fmt"

	"github.com/presage-dvm/presage/orders/ordertrace"
)

// state is where a live order is in its life.
type state uint8

const (
	unread    state = iota // requested before its line was read
	pending                // read, not yet made by its parent
	queued                 // made, waiting for a core (or its arguments)
	running                // on a core
	suspended              // waiting for a result, its core freed
	resumable              // the result arrived; waiting for a core of its node
	finished
)

// live is an order the simulation holds: from when its line is read (or
// it is first requested) until it has finished and its last request has
// been played.
type live struct {
	id     int64
	o      *ordertrace.Order // nil once finished: its segments are not needed
	parent *live
	node   int32 // -1 until placed
	slot   int32 // its number in the engine's slots while it is made and not finished
	state  state

	own float64 // the own moment it is at (or stepping to, while running)

	// Children read and not yet made form a queue, in order of making,
	// linked by sibling; kidsLeft is the number not yet read, reqsLeft
	// the number of requests naming the order not yet played: when it
	// has finished and none is left, the order is dropped.
	nextKid, lastKid, sibling *live
	kidsLeft, reqsLeft        uint32
	argNode                   int32 // where the arguments are: the parent's node

	// results are the order's results; once provided, At holds the
	// moment of the simulated run instead of the own moment.
	results  []ordertrace.Result
	provided int32
	ri, qi   int32 // next result, next request
	waitOn   int32 // which result of the order waited on
	waiters  *live // suspended on one of its results, linked by nextWaiter
	nextWait *live

	made, ready, start, suspendedAt float64
	wait, transfer                  float64

	// The critical path: the chain that led to the current run stretch,
	// which started at runStart after xferIn of transfer (the rest of the
	// gap was queueing); pendChain and pendXfer replace them on resuming.
	// prov holds the stretch that provided each result.
	chain, pendChain *link
	xferIn, pendXfer float64
	runStart         float64
	madeBy           link // the parent's stretch until it made the order
	prov0            *link
	provMore         []*link
	lazyLast         bool // the last result's link is made when needed
}

// provLink returns the stretch that provided result i. A result
// provided at the end of the order, with nobody waiting, gets its link
// only when a request needs it: the order's chain does not change after
// its end.
func (l *live) provLink(i int32) *link {
	if l.lazyLast && int(i) == len(l.results)-1 {
		l.lazyLast = false
		l.setProvLink(i, l.stretch(l.results[i].At))
	}
	if i == 0 {
		return l.prov0
	}
	return l.provMore[i-1]
}

func (l *live) setProvLink(i int32, k *link) {
	if i == 0 {
		l.prov0 = k
		return
	}
	if l.provMore == nil {
		l.provMore = make([]*link, len(l.results)-1)
	}
	l.provMore[i-1] = k
}

// addKid appends k to l's children to make.
func (l *live) addKid(k *live) {
	if l.nextKid == nil {
		l.nextKid = k
	} else {
		l.lastKid.sibling = k
	}
	l.lastKid = k
}

// kid returns the next child l makes, nil when it makes no more.
func (e *engine) kid(l *live) (*live, error) {
	for l.nextKid == nil && l.kidsLeft > 0 {
		if e.eof {
			return nil, fmt.Errorf("ordersim: the trace ended before the %d children left of order %d (expected the same trace on every read)", l.kidsLeft, l.id)
		}
		if err := e.readNext(); err != nil {
			return nil, err
		}
	}
	return l.nextKid, nil
}
