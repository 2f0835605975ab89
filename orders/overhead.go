package orders

import "context"

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
// enough that the run's start and end weigh little, and that the
// collector runs during it, as it does in a program's run: an order
// allocates about 400 bytes, and 2,048 of them (the count before) less
// than the heap at which the collector starts, so that they were priced
// without it, below what BenchmarkRuntimeCosts measures on 65,536.
const overheadOrders = 16384

// overheadBatch is how many orders a batch of makeBatches makes before
// it waits: few enough that the orders waiting for the worker stay few,
// as in a program's run.
const overheadBatch = 16

var (
	emptyOrder = Proc("orders.empty", func(*Ctx, int) (int, error) { return 0, nil })
	// makeBatches makes overheadOrders empty orders by batches of k and
	// gets the last of each batch: on one worker, FIFO, that Get
	// suspends its maker while the batch runs, so the run pays
	// overheadOrders orders and overheadOrders/k waits.
	makeBatches = Proc("orders.make-batches", func(c *Ctx, k int) (int, error) {
		for i := 0; i < overheadOrders; i += k {
			var last *Handle[int]
			for j := range k {
				last = Make(c, emptyOrder, j)
			}
			if _, err := last.Get(c); err != nil {
				return 0, err
			}
		}
		return 0, nil
	})
)

// timeRuntime returns run mode's cost per order and per wait on one
// worker, in seconds, reps times each, after a run not timed (the first
// run of a process grows its heap and its goroutine stacks). Batches of
// one order cost n(order + wait), batches of K n·order + (n/K)·wait;
// the two give both. A machine too noisy to tell one from zero gets a
// nanosecond, the least a calibration row may hold.
func timeRuntime(ctx context.Context, reps int) (order, wait []float64, err error) {
	cfg := Config{Workers: 1, Pin: true}
	perOrder := func(k int) (float64, error) {
		rep, err := runMain(ctx, cfg, makeBatches.name, func(c *Ctx) (int64, error) {
			_, err := makeBatches.fn(c, k)
			return 0, err
		})
		if err != nil {
			return 0, err
		}
		return rep.Elapsed.Seconds() / overheadOrders, nil
	}
	if _, err := perOrder(overheadBatch); err != nil {
		return nil, nil, err
	}
	for range reps {
		one, err := perOrder(1)
		if err != nil {
			return nil, nil, err
		}
		batched, err := perOrder(overheadBatch)
		if err != nil {
			return nil, nil, err
		}
		const k = overheadBatch
		w := max((one-batched)/(1-1.0/k), 1e-9)
		order = append(order, max(batched-w/k, 1e-9))
		wait = append(wait, w)
	}
	return order, wait, nil
}
