package ordergen

import (
	"math/bits"

	"github.com/presage-dvm/presage/sim/ordertrace"
)

// divideAndConquer writes the tree level by level: order i at depth
// floor(log2 i) is made by i/2 at the moment its parent's split ends.
func (g *gen) divideAndConquer() error {
	n := g.opt.Count()
	for i := int64(1); i <= n; i++ {
		madeAt := 0.0
		if i > 1 {
			madeAt = g.jittered(g.opt.Split, i/2, drawSplit)
		}
		o := g.reset(i, i/2, "solve", madeAt)
		if depth := bits.Len64(uint64(i)) - 1; depth == g.opt.Depth {
			work(o, g.jittered(g.opt.Leaf, i, drawLeaf), "leaf")
		} else {
			at := work(o, g.jittered(g.opt.Split, i, drawSplit), "split")
			o.Requests = append(o.Requests, ordertrace.Request{Order: 2 * i, At: at}, ordertrace.Request{Order: 2*i + 1, At: at})
			work(o, g.jittered(g.opt.Combine, i, drawCombine), "combine")
		}
		g.provide(o)
		if err := g.write(); err != nil {
			return err
		}
	}
	return nil
}

// pipeline writes main, then the stage orders item by item: (s, j) is
// order 2 + j·Stages + s, made when main has fed item j.
func (g *gen) pipeline() error {
	p, m := int64(g.opt.Stages), int64(g.opt.Items)
	fed := float64(m) * g.opt.Feed
	o := g.reset(1, 0, "main", 0)
	o.Duration = fed + g.opt.Combine
	g.provide(o)
	lastStages := func(yield func(ordertrace.Request) bool) {
		for j := range m {
			if !yield(ordertrace.Request{Order: 2 + j*p + p - 1, At: fed}) {
				return
			}
		}
	}
	if err := g.writeStreaming(lastStages); err != nil {
		return err
	}
	for j := range m {
		for s := range p {
			id := 2 + j*p + s
			o := g.reset(id, 1, "stage", float64(j+1)*g.opt.Feed)
			if j > 0 {
				o.Requests = append(o.Requests, ordertrace.Request{Order: id - p})
			}
			if s > 0 {
				o.Requests = append(o.Requests, ordertrace.Request{Order: id - 1})
			}
			work(o, g.jittered(g.opt.Leaf, id, drawLeaf), "stage")
			g.provide(o)
			if err := g.write(); err != nil {
				return err
			}
		}
	}
	return nil
}

// masterWorker writes the master, then the tasks round by round: task i
// of round k is order 2 + k·Workers + i, made once the master has
// prepared it; the master waits for round k when it has prepared it all.
func (g *gen) masterWorker() error {
	w, rounds := int64(g.opt.Workers), int64(g.opt.Rounds)
	prepared := func(k, i int64) float64 { return float64(k*w+i+1) * g.opt.Feed }
	o := g.reset(1, 0, "master", 0)
	o.Duration = prepared(rounds-1, w-1) + g.opt.Combine
	g.provide(o)
	results := func(yield func(ordertrace.Request) bool) {
		for k := range rounds {
			for i := range w {
				if !yield(ordertrace.Request{Order: 2 + k*w + i, At: prepared(k, w-1)}) {
					return
				}
			}
		}
	}
	if err := g.writeStreaming(results); err != nil {
		return err
	}
	for k := range rounds {
		for i := range w {
			id := 2 + k*w + i
			o := g.reset(id, 1, "task", prepared(k, i))
			work(o, g.jittered(g.opt.Leaf, id, drawLeaf), "task")
			g.provide(o)
			if err := g.write(); err != nil {
				return err
			}
		}
	}
	return nil
}
