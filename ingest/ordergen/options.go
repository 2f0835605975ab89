package ordergen

import (
	"fmt"
	"math"
)

// Shape names the structure of a generated program.
type Shape string

// The shapes.
const (
	// DivideAndConquer is a binary tree of Depth levels of splitting:
	// an inner order splits (Split), makes its two halves, waits for both
	// and combines (Combine); a leaf computes (Leaf). Orders are numbered
	// level by level, as a heap: order i makes 2i and 2i+1.
	DivideAndConquer Shape = "dac"
	// Pipeline is Stages stages over Items items: main feeds the items
	// (Feed per item, making the item's stage orders after feeding it),
	// then waits for every item's last stage and combines (Combine). Stage
	// order (s, j) waits for (s-1, j) and (s, j-1), then computes (Leaf).
	Pipeline Shape = "pipeline"
	// MasterWorker is a master that, in each of Rounds rounds, prepares
	// (Feed) and makes Workers tasks, then waits for the round's results;
	// it combines (Combine) at the end. A task computes (Leaf). One round
	// is a plain bag of tasks.
	MasterWorker Shape = "master"
)

// Options say what to generate. Costs are seconds of own time.
type Options struct {
	Shape   Shape
	Program string // the header's program name; the shape's name when empty

	Depth           int // DivideAndConquer: levels of splitting (2^(Depth+1)-1 orders)
	Stages, Items   int // Pipeline
	Workers, Rounds int // MasterWorker: tasks per round, rounds (0 means 1)

	Leaf    float64 // a leaf's, a stage's or a task's block
	Split   float64 // DivideAndConquer: before making the halves
	Combine float64 // after the wait: inner orders, main, the master
	Feed    float64 // Pipeline: per item; MasterWorker: per task

	// Jitter spreads the block costs (Leaf, Split, Combine of inner
	// orders): each is multiplied by 1 + Jitter·u, u uniform in [-1, 1)
	// drawn from Seed and the order's id. Feed and the main order's
	// Combine stay exact.
	Jitter float64
	Seed   uint64

	ArgBytes, ResultBytes int64
}

// MaxOrders bounds a generated trace.
const MaxOrders = 1 << 30

// check returns opt with defaults applied, or an error naming the first
// unusable field.
func (opt Options) check() (Options, error) {
	if opt.Program == "" {
		opt.Program = string(opt.Shape)
	}
	if opt.Shape == MasterWorker && opt.Rounds == 0 {
		opt.Rounds = 1
	}
	for _, c := range []struct {
		name string
		v    float64
	}{{"Leaf", opt.Leaf}, {"Split", opt.Split}, {"Combine", opt.Combine}, {"Feed", opt.Feed}} {
		if !(c.v >= 0) || math.IsInf(c.v, 1) {
			return opt, fmt.Errorf("ordergen: %s = %v: want a finite cost ≥ 0", c.name, c.v)
		}
	}
	switch {
	case !(opt.Jitter >= 0 && opt.Jitter < 1):
		return opt, fmt.Errorf("ordergen: Jitter = %v: want 0 ≤ Jitter < 1", opt.Jitter)
	case opt.ArgBytes < 0 || opt.ResultBytes < 0:
		return opt, fmt.Errorf("ordergen: ArgBytes = %d, ResultBytes = %d: want ≥ 0", opt.ArgBytes, opt.ResultBytes)
	}
	return opt, opt.checkSize()
}

func (opt Options) checkSize() error {
	var ok bool
	switch opt.Shape {
	case DivideAndConquer:
		ok = opt.Depth >= 0 && opt.Depth < 30
	case Pipeline:
		ok = opt.Stages >= 1 && opt.Items >= 1 && int64(opt.Stages)*int64(opt.Items) < MaxOrders
	case MasterWorker:
		ok = opt.Workers >= 1 && opt.Rounds >= 1 && int64(opt.Workers)*int64(opt.Rounds) < MaxOrders
	default:
		return fmt.Errorf("ordergen: unknown shape %q: want %q, %q or %q", opt.Shape, DivideAndConquer, Pipeline, MasterWorker)
	}
	if !ok {
		return fmt.Errorf("ordergen: size of %s out of range (Depth %d, Stages %d, Items %d, Workers %d, Rounds %d): want at most %d orders",
			opt.Shape, opt.Depth, opt.Stages, opt.Items, opt.Workers, opt.Rounds, MaxOrders)
	}
	return nil
}

// Count returns the number of orders opt generates.
func (opt Options) Count() int64 {
	switch opt.Shape {
	case DivideAndConquer:
		return 1<<(opt.Depth+1) - 1
	case Pipeline:
		return 1 + int64(opt.Stages)*int64(opt.Items)
	case MasterWorker:
		return 1 + int64(opt.Workers)*int64(max(opt.Rounds, 1))
	}
	return 0
}
