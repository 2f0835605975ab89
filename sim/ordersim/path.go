package ordersim

import "math"

// link is one run stretch of the critical path as the simulation builds
// it: order ran on node from from to to, after a gap since prev.to of
// which xfer was a transfer and the rest queueing. Links are immutable and
// shared: every live order points at the chain that led to its current
// stretch, so memory follows the live orders, and the garbage collector
// drops the chains nothing live can extend.
type link struct {
	order    int64
	node     int32
	from, to float64
	xfer     float64
	prev     *link
}

// stretch returns the link of l's run from its current start to t.
func (l *live) stretch(t float64) *link {
	k := l.stretchAt(t)
	return &k
}

func (l *live) stretchAt(t float64) link {
	return link{order: l.id, node: l.node, from: l.runStart, to: t, xfer: l.xferIn, prev: l.chain}
}

// steps unrolls the chain ending at last into steps from the first.
func steps(last *link) []Step {
	var rev []Step
	for k := last; k != nil; k = k.prev {
		rev = append(rev, Step{Kind: Run, Order: k.order, Node: int(k.node), Start: k.from, End: k.to})
		if k.prev == nil {
			break
		}
		gapStart := k.prev.to
		if k.xfer > 0 {
			rev = append(rev, Step{Kind: Transfer, Order: k.order, Node: int(k.node), Start: gapStart, End: gapStart + k.xfer})
		}
		if q := gapStart + k.xfer; k.from-q > 1e-12*max(1, math.Abs(k.from)) {
			rev = append(rev, Step{Kind: Queue, Order: k.order, Node: int(k.node), Start: q, End: k.from})
		}
	}
	for i, j := 0, len(rev)-1; i < j; i, j = i+1, j-1 {
		rev[i], rev[j] = rev[j], rev[i]
	}
	return rev
}
