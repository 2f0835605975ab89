package orders

import (
	"context"
	"sync"
)

// runMode executes orders in parallel, a goroutine each, on a pool of
// workers.
type runMode struct {
	pool   *pool
	orders sync.WaitGroup // every order made, so that the run ends with the last
	mu     sync.Mutex
	count  int64 // orders made
	// active counts the orders made, not ended and not suspended in Get:
	// when it falls to 0 while orders wait, every order left waits for
	// another and none can end (a cycle of handles).
	active  int
	waits   map[*order]*order // suspended orders, with the order each waits for
	dead    chan struct{}     // closed on a deadlock, which wakes every Get
	deadErr *DeadlockError
	runState
}

func newRunMode(ctx context.Context, cfg Config) *runMode {
	r := &runMode{pool: newPool(cfg.workers(), cfg.Migrate), waits: map[*order]*order{}, dead: make(chan struct{})}
	r.start(ctx, cfg.Check)
	return r
}

func (r *runMode) make(_ *Ctx, name string, _ int64, body func(*Ctx) (int64, error)) *order {
	r.mu.Lock()
	r.count++
	r.active++
	o := &order{id: r.count, proc: name, done: make(chan struct{})}
	r.mu.Unlock()
	r.orders.Add(1)
	go r.exec(o, body)
	return o
}

func (r *runMode) exec(o *order, body func(*Ctx) (int64, error)) {
	defer r.orders.Done()
	o.slot = r.pool.acquire()
	var err error
	defer func() {
		ended(o, err, recover())
		r.pool.finish(o.slot)
		r.mu.Lock()
		o.ended = true
		for _, w := range o.waiters { // they can go on: active again
			if r.waits[w] == o {
				delete(r.waits, w)
				r.active++
			}
		}
		r.active--
		r.checkDeadlock()
		r.mu.Unlock()
		close(o.done)
		// A failure cancels the run once its requesters can see it: a
		// requester woken by the cancel finds o ended, and gets its error.
		r.note(o)
	}()
	r.check() // an order that gets its worker after a cancel does not start
	_, err = body(&Ctx{rt: r, ord: o, run: &r.runState})
}

func (r *runMode) get(c *Ctx, o *order) error {
	select {
	case <-o.done:
	default:
		r.pool.suspend(c.ord.slot)
		if r.wait(c.ord, o) {
			<-o.done
		} else {
			select {
			case <-o.done:
			case <-r.dead:
			case <-r.ctx.Done():
			}
			r.unwait(c.ord)
		}
		c.ord.slot = r.pool.resumeOn(c.ord.slot)
		select {
		case <-o.done:
		default:
			r.check()
			return r.deadErr // woken by the deadlock, not by the result
		}
	}
	return nil
}

// wait registers w as waiting for o, unless o has ended (it reports true
// then: o.done is about to be closed). The order that ends o makes w
// active again.
func (r *runMode) wait(w, o *order) (ended bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if o.ended {
		return true
	}
	r.active--
	r.waits[w] = o
	o.waiters = append(o.waiters, w)
	r.checkDeadlock()
	return false
}

// unwait makes w, woken, active again if the order it waited for has not
// (it was woken by the deadlock or the run's end).
func (r *runMode) unwait(w *order) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, ok := r.waits[w]; ok {
		delete(r.waits, w)
		r.active++
	}
}

// checkDeadlock closes dead when no order can go on: none is active and
// some wait. The caller holds r.mu.
func (r *runMode) checkDeadlock() {
	if r.active > 0 || len(r.waits) == 0 || r.deadErr != nil {
		return
	}
	d := &DeadlockError{}
	for w, f := range r.waits {
		d.Waits = append(d.Waits, Wait{Order: w.id, Proc: w.proc, For: f.id, ForProc: f.proc})
	}
	sortWaits(d.Waits)
	r.deadErr = d
	close(r.dead)
}

func (r *runMode) block(_ *Ctx, _ string, _ Cost, real, _ func()) { real() }
