package orders

import (
	"context"
	"sync"
	"time"

	"github.com/presage-dvm/presage/orders/measured"
)

// runMode executes orders in parallel, a goroutine each, on a pool of
// workers.
type runMode struct {
	pool *pool
	// schedule, when set, keeps every order's real schedule (the run's
	// measurement is written): made is kept with its order.
	schedule bool
	all      []*order       // with schedule, every order made, by id
	orders   sync.WaitGroup // every order made, so that the run ends with the last
	mu       sync.Mutex
	count    int64 // orders made
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
	r := &runMode{pool: newPool(cfg.workers(), cfg.scheduler(), !cfg.Pin, cfg.Seed), waits: map[*order]*order{}, dead: make(chan struct{}),
		schedule: cfg.Out != "" || cfg.Output != nil}
	r.start(ctx, cfg.Check)
	return r
}

func (r *runMode) make(parent *Ctx, spec orderSpec) *order {
	from := -1 // the worker the arguments are on
	o := &order{proc: spec.name, done: make(chan struct{})}
	if parent != nil {
		from = parent.ord.slot
		if r.schedule {
			o.run = &orderSchedule{parent: parent.ord.id, child: parent.ord.run.kids, made: r.since()}
			parent.ord.run.kids++
		}
	} else if r.schedule {
		o.run = &orderSchedule{}
	}
	r.mu.Lock()
	r.count++
	r.active++
	o.id = r.count
	if r.schedule {
		r.all = append(r.all, o)
	}
	r.mu.Unlock()
	r.orders.Add(1)
	t := r.pool.place(from)
	go r.exec(o, t, spec.body)
	return o
}

// since is the time since the run started, in seconds.
func (r *runMode) since() float64 { return time.Since(r.pool.start).Seconds() }

// orderSchedule is an order's real schedule, kept when the run's
// measurement is written.
type orderSchedule struct {
	parent    int64
	child     int // its place among its parent's children
	kids      int // children made so far
	made      float64
	stretches []measured.Stretch
}

// ran opens a stretch of o on its worker; stopped closes it.
func (r *runMode) ran(o *order) {
	if o.run != nil {
		o.run.stretches = append(o.run.stretches, measured.Stretch{Worker: o.slot, Start: r.since()})
	}
}

func (r *runMode) stopped(o *order) {
	if o.run != nil {
		o.run.stretches[len(o.run.stretches)-1].End = r.since()
	}
}

func (r *runMode) exec(o *order, t *ticket, body func(*Ctx) (int64, error)) {
	defer r.orders.Done()
	o.slot = r.pool.wait(t)
	r.ran(o)
	var err error
	defer func() {
		ended(o, err, recover())
		r.stopped(o)
		r.pool.finish(o.slot)
		r.mu.Lock()
		if oe, ok := o.err.(*OrderError); ok && oe.Order == o.id {
			oe.Requesters = requesters(o)
		}
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
		r.stopped(c.ord)
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
		c.ord.slot = r.pool.wait(r.pool.resumeFrom(c.ord.slot))
		r.ran(c.ord)
		select {
		case <-o.done:
		default:
			r.check()
			return r.deadErr // woken by the deadlock, not by the result
		}
	}
	return nil
}

// requesters returns the chain of first requesters of o, which failed:
// who waits for it, who waits for that one, and so on. The caller holds
// r.mu.
func requesters(o *order) []OrderRef {
	var chain []OrderRef
	for len(o.waiters) > 0 && len(chain) < 64 { // a cycle of handles would loop
		o = o.waiters[0]
		chain = append(chain, OrderRef{Order: o.id, Proc: o.proc})
	}
	return chain
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

// schedules returns every order's real schedule, by id; the run has ended.
func (r *runMode) schedules() []measured.Order {
	out := make([]measured.Order, len(r.all))
	for i, o := range r.all {
		s := o.run
		out[i] = measured.Order{ID: o.id, Parent: s.parent, Child: s.child, Proc: o.proc, Made: s.made, Stretches: s.stretches}
	}
	return out
}
