package orders

import (
	"sync"
)

// runMode executes orders in parallel, a goroutine each, on a pool of
// workers.
type runMode struct {
	pool   *pool
	orders sync.WaitGroup // every order made, so that the run ends with the last
	mu     sync.Mutex
	count  int64
	failure
}

func newRunMode(workers int, migrate bool) *runMode {
	return &runMode{pool: newPool(workers, migrate)}
}

func (r *runMode) make(_ *Ctx, _ string, _ int64, body func(*Ctx) int64) *order {
	o := &order{done: make(chan struct{})}
	r.mu.Lock()
	r.count++
	r.mu.Unlock()
	r.orders.Add(1)
	go r.exec(o, body)
	return o
}

func (r *runMode) exec(o *order, body func(*Ctx) int64) {
	defer r.orders.Done()
	o.slot = r.pool.acquire()
	defer func() {
		o.err = recover()
		r.note(o.err)
		r.pool.finish(o.slot)
		close(o.done)
	}()
	body(&Ctx{rt: r, ord: o})
}

func (r *runMode) get(c *Ctx, o *order) {
	select {
	case <-o.done:
	default:
		r.pool.suspend(c.ord.slot)
		<-o.done
		c.ord.slot = r.pool.resumeOn(c.ord.slot)
	}
	rethrow(o)
}

func (r *runMode) block(_ *Ctx, _ string, _ Cost, real, _ func()) { real() }
