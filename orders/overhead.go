package orders

import (
	"context"
	"time"
)

// The blocks under which calibration rows time the runtime itself (f = 1):
// record mode writes their prices into the trace's header
// (tracefile.Header.OrderCost and WaitCost), and the simulator charges
// them per order and per resumed wait.
const (
	// OrderBlock is run mode's cost of an order that never waits:
	// making it, starting it on a worker, ending it and getting its
	// result.
	OrderBlock = "orders.order"
	// WaitBlock is the cost run mode adds when a Get suspends its order:
	// freeing the worker, waking the order when the result comes and
	// resuming it.
	WaitBlock = "orders.wait"
)

// overheadOrders is how many orders each timing of the runtime makes:
// as many as BenchmarkRuntimeCosts makes, for the cost per order grows
// with the collections a run pays (an order allocates about 400 bytes),
// and a program of many orders runs with the collector in its steady
// state: 16,384 orders priced an order about 15% below what 65,536
// cost, in the same process (2,048, less than the heap at which the
// collector starts, lower still).
const overheadOrders = 65536

// overheadBatch is how many orders a batch of getBatches makes before
// it gets their results: few enough that the orders waiting for the
// worker stay few, as in a program's run.
const overheadBatch = 16

var (
	emptyOrder = Proc("orders.empty", func(*Ctx, int) (int, error) { return 0, nil })
	// getBatches makes n empty orders by batches of overheadBatch and
	// gets every result of a batch before it makes the next, last first
	// or first first. On one worker, FIFO, the maker resumes ahead of
	// the batch's orders not yet run: got last first, its Get of the last
	// suspends it while the batch runs and the others have ended (n
	// orders, n/k waits); got first first, every Get suspends it while
	// one order runs (n orders and as many waits). The two runs make,
	// start, end and get the same orders and differ only by the waits
	// (splitWaits).
	// getEach makes n empty orders one at a time and gets each before it
	// makes the next: n orders and as many waits wherever they run. On
	// worker processes, where orders start ahead on busy cores
	// (Config.Ahead) and the first of a batch is often over before its
	// maker asks, getBatches got first first waits about as often as
	// got last first; probeRuntime sets this one beside it.
	getEach = Proc("orders.get-each", func(c *Ctx, n int) (int, error) {
		for i := range n {
			if _, err := Make(c, emptyOrder, i).Get(c); err != nil {
				return 0, err
			}
		}
		return 0, nil
	})
	getBatches = Proc2("orders.get-batches", func(c *Ctx, n int, lastFirst bool) (int, error) {
		hs := make([]*Handle[int], overheadBatch)
		for i := 0; i < n; i += overheadBatch {
			for j := range hs {
				hs[j] = Make(c, emptyOrder, j)
			}
			for j := range hs {
				if lastFirst {
					j = len(hs) - 1 - j
				}
				if _, err := hs[j].Get(c); err != nil {
					return 0, err
				}
			}
		}
		return 0, nil
	})
)

// timeRuntime returns run mode's cost per order and per wait on one
// worker, in seconds, reps times each, after a run not timed (the first
// run of a process grows its heap and its goroutine stacks). Each
// timing runs getBatches as a program runs (the rule's default, orders
// free to migrate), timed from outside the run as BenchmarkRuntimeCosts
// times it: got first first it costs n(order + wait), got last first
// n·order + (n/K)·wait; the two give both (splitWaits).
func timeRuntime(ctx context.Context, reps int) (order, wait []float64, err error) {
	cfg := Config{Workers: 1}
	timed := func(lastFirst bool) (float64, error) {
		start := time.Now()
		_, err := runMain(ctx, cfg, getBatches.name, func(c *Ctx) (int64, error) {
			_, err := getBatches.fn(c, overheadOrders, lastFirst)
			return 0, err
		})
		if err != nil {
			return 0, err
		}
		return time.Since(start).Seconds(), nil
	}
	if _, err := timed(true); err != nil {
		return nil, nil, err
	}
	for range reps {
		each, err := timed(false)
		if err != nil {
			return nil, nil, err
		}
		few, err := timed(true)
		if err != nil {
			return nil, nil, err
		}
		o, w := splitWaits(overheadOrders, each, overheadOrders, few, overheadOrders/overheadBatch)
		order, wait = append(order, o), append(wait, w)
	}
	return order, wait, nil
}
