package ordergen

import (
	"errors"
	"math"
)

// Expected is the exact work and span of a generated trace.
type Expected struct {
	Orders       int64
	Work         float64
	Span         float64 // edges between orders free
	BurdenedSpan float64 // every make and result edge one message
}

// Expect returns the work and span of the trace opt generates, by the
// closed form of its shape (so independently of sim/workspan), the
// burdened span with messages of latency + bytes/bandwidth seconds
// (bandwidth 0: unlimited). Jittered traces have no closed form.
func Expect(opt Options, latency, bandwidth float64) (Expected, error) {
	opt, err := opt.check()
	if err != nil {
		return Expected{}, err
	}
	if opt.Jitter != 0 {
		return Expected{}, errors.New("ordergen: Expect needs Jitter 0: jittered costs have no closed form")
	}
	msg := func(bytes int64) float64 {
		if bandwidth <= 0 {
			return latency
		}
		return latency + float64(bytes)/bandwidth
	}
	e := Expected{Orders: opt.Count()}
	e.Work, e.Span = closedForm(opt, 0, 0)
	_, e.BurdenedSpan = closedForm(opt, msg(opt.ArgBytes), msg(opt.ResultBytes))
	return e, nil
}

// closedForm returns the work and the span when a make edge costs m and
// a result edge r.
func closedForm(opt Options, m, r float64) (work, span float64) {
	leaf, split, combine, feed := opt.Leaf, opt.Split, opt.Combine, opt.Feed
	switch opt.Shape {
	case DivideAndConquer:
		// Every level on the way down splits and sends, on the way up waits
		// for the slower (equal) half, receives and combines.
		d := float64(opt.Depth)
		inner, leaves := math.Exp2(d)-1, math.Exp2(d)
		return inner*(split+combine) + leaves*leaf, d*(split+combine+m+r) + leaf
	case Pipeline:
		// The last stage of the last item ends at the longest path through
		// the items × stages grid: it starts at item j' (made at (j'+1)·feed),
		// then moves one cell at a time, paying r+leaf per move; the best j'
		// is 0 or the last item, whichever of feed and leaf+r is larger.
		p, n := float64(opt.Stages), float64(opt.Items)
		last := feed + m + leaf + (p-1)*(leaf+r) + (n-1)*max(feed, leaf+r)
		return n*feed + combine + p*n*leaf, max(n*feed, last+r) + combine
	case MasterWorker:
		// Each round adds the last task's make, its block and its result.
		w, k := float64(opt.Workers), float64(opt.Rounds)
		return w*k*(feed+leaf) + combine, w*k*feed + combine + k*(leaf+m+r)
	}
	return 0, 0
}
