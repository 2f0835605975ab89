package programs

import (
	"math"
	"math/rand/v2"

	"github.com/presage-dvm/presage/orders"
)

// Pipeline passes items through stages: main makes, for every item, an
// order that produces it and, for every stage, an order that transforms
// the item the previous stage made, carrying a state from the same
// stage's previous item. Stages thus exchange results, and the stages of
// different items overlap. A stage's transform is a marked block of cost
// length × rounds.
var Pipeline = Program{Name: "pipeline", Size: 16, Small: 4, Medium: 4, Tests: pipelineTests, Run: runPipeline}

const (
	pipelineStages = 4
	pipelineLength = 4096 // numbers in an item
	pipelineRounds = 48   // passes of a stage's transform
)

// Item is what flows between stages: the numbers and the state of the
// stage that made them.
type Item struct {
	Xs    []float64
	State float64
}

// Bytes is what the item moves between computers.
func (it Item) Bytes() int64 { return int64(8*len(it.Xs) + 8) }

var produce = orders.Proc("produce", func(c *orders.Ctx, seed uint64) (Item, error) {
	xs := make([]float64, pipelineLength)
	rng := rand.New(rand.NewPCG(4, seed))
	for i := range xs {
		xs[i] = rng.Float64()
	}
	return Item{Xs: xs}, nil
})

// stage transforms the item in, carrying the state of prev (nil for the
// first item).
var stage = orders.Proc3("stage", func(c *orders.Ctx, s int, in, prev *orders.Handle[Item]) (Item, error) {
	it, err := in.Get(c)
	if err != nil {
		return Item{}, err
	}
	var state float64
	if prev != nil {
		p, err := prev.Get(c)
		if err != nil {
			return Item{}, err
		}
		state = p.State
	}
	f := float64(len(it.Xs) * pipelineRounds)
	return orders.Compute(c, "stage", orders.Cost{Alpha: []float64{float64(len(it.Xs)), pipelineRounds}, F: f},
		func() Item { return transform(s, it, state) },
		func() Item { return Item{Xs: make([]float64, len(it.Xs))} }), nil
})

// transform is stage s's work on an item: rounds of a smooth map.
func transform(s int, it Item, state float64) Item {
	xs := make([]float64, len(it.Xs))
	copy(xs, it.Xs)
	k := 0.5 + 0.1*float64(s)
	for range pipelineRounds {
		for i, x := range xs {
			xs[i] = math.Sin(x+state) * k
		}
	}
	var sum float64
	for _, x := range xs {
		sum += x
	}
	return Item{Xs: xs, State: 0.5*state + sum/float64(len(xs))}
}

var pipelineMain = orders.Proc("pipeline", func(c *orders.Ctx, items int) (float64, error) {
	last := make([]*orders.Handle[Item], pipelineStages) // each stage's latest item
	var outs []*orders.Handle[Item]
	for j := range items {
		h := orders.Make(c, produce, uint64(j))
		for s := range pipelineStages {
			h = orders.Make3(c, stage, s, h, last[s])
			last[s] = h
		}
		outs = append(outs, h)
	}
	var total float64
	for _, h := range outs {
		it, err := h.Get(c)
		if err != nil {
			return 0, err
		}
		total += it.State
	}
	return total, nil
})

// pipelineSequential computes the pipeline's answer without orders.
func pipelineSequential(items int) float64 {
	states := make([]float64, pipelineStages)
	var total float64
	for j := range items {
		rng := rand.New(rand.NewPCG(4, uint64(j)))
		it := Item{Xs: make([]float64, pipelineLength)}
		for i := range it.Xs {
			it.Xs[i] = rng.Float64()
		}
		for s := range pipelineStages {
			it = transform(s, it, states[s])
			states[s] = it.State
		}
		total += it.State
	}
	return total
}

func runPipeline(cfg orders.Config, items int) (*orders.Summary, error) {
	got, rep, err := orders.Main(cfg, pipelineMain, items)
	if err != nil || rep.Mode != orders.ModeRun {
		return rep, err
	}
	want := pipelineSequential(items)
	return rep, check(cfg, got == want, "total %v instead of %v", got, want)
}

// pipelineTests time a stage of every kind.
func pipelineTests(int) []orders.TestCase {
	return []orders.TestCase{orders.Test("stages", func(c *orders.Ctx) error {
		h := orders.Make(c, produce, 99)
		for s := range pipelineStages {
			h = orders.Make3(c, stage, s, h, nil)
		}
		_, err := h.Get(c)
		return err
	})}
}
