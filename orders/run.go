package orders

import (
	"context"
	"sync"
	"sync/atomic"
	"time"

	"github.com/presage-dvm/presage/orders/measured"
)

// runMode executes orders in parallel on Workers workers (sched).
type runMode struct {
	sched *sched
	// schedule, when set, keeps every order's real schedule (the run's
	// measurement is written): made is kept with its order.
	schedule bool
	all      []*order     // with schedule, every order made, by id
	count    atomic.Int64 // orders made
	// active counts the orders made, not ended and not suspended in Get:
	// when it falls to 0 while orders wait, every order left waits for
	// another and none can end (a cycle of handles). Every order writes
	// it from two workers: a cache line of its own keeps it from taking
	// count's and mu's with it.
	_      [64]byte
	active atomic.Int64
	_      [56]byte
	// mu guards the waits (waiting, and the orders' waitsFor, waitAt and
	// waiters) and all: it is taken when an order suspends in Get, when
	// an order that was waited for ends (never for an order nobody waits
	// for: order.state), and at each Make with schedule.
	mu      sync.Mutex
	waiting []*order       // the suspended orders, each at its waitAt, with the order it waits for (waitsFor)
	deadErr *DeadlockError // set on a deadlock, which wakes every waiter
	// onHandOver, set by a test, runs in get once a suspending order has
	// handed its worker over, with the order it waits for: the test holds
	// the waiter there until that order has ended.
	onHandOver func(*order)
	runState
}

func newRunMode(ctx context.Context, cfg Config) *runMode {
	r := &runMode{schedule: cfg.Out != "" || cfg.Output != nil}
	r.start(ctx, cfg.Check)
	context.AfterFunc(r.ctx, func() { // the run's end wakes every waiter
		r.mu.Lock()
		r.stopWaits()
		r.mu.Unlock()
	})
	r.sched = newSched(cfg.workers(), cfg.scheduler(), !cfg.Pin, cfg.Seed, r.exec)
	return r
}

// made returns the number of orders made so far.
func (r *runMode) made() int64 { return r.count.Load() }

func (r *runMode) make(parent *Ctx, spec orderSpec) *order {
	from := -1 // the worker the arguments are on
	ot := spec.room
	if ot == nil {
		ot = new(runOrder)
	}
	o := &ot.order
	o.proc = spec.name
	if parent != nil {
		from = parent.ord.slot
		if r.schedule {
			o.run = &orderSchedule{parent: parent.ord.id, child: parent.ord.run.kids, made: r.since()}
			parent.ord.run.kids++
		}
	} else if r.schedule {
		o.run = &orderSchedule{}
	}
	r.active.Add(1)
	if r.schedule {
		r.mu.Lock() // the ids and the list in one order
		o.id = r.count.Add(1)
		r.all = append(r.all, o)
		r.mu.Unlock()
	} else {
		o.id = r.count.Add(1)
	}
	ot.ctx = Ctx{rt: r, ord: o, run: &r.runState}
	ot.task = task{o: o, body: spec.body, ctx: &ot.ctx}
	r.sched.place(from, &ot.task)
	return o
}

// runOrder is what run mode keeps of an order: the order, its task and
// its Ctx, in one allocation with the order's body where Make makes it
// (orderSpec.room), so that an order costs little more than a goroutine.
type runOrder struct {
	order
	task
	ctx Ctx
}

// since is the time since the run started, in seconds.
func (r *runMode) since() float64 { return time.Since(r.sched.start).Seconds() }

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

// exec runs new order t on worker i, on the goroutine of i's loop, and
// returns the worker it ended on (a Get may have resumed it on another)
// and the task that worker starts next, if it has one of its own.
func (r *runMode) exec(t *task, i int) (last int, next *task) {
	o := t.o
	o.slot = i
	r.ran(o)
	var err error
	defer func() {
		ended(o, err, recover())
		r.stopped(o)
		r.end(o) // before finish: a waiter of o on this worker resumes ahead of new orders
		// A failure cancels the run once its requesters can see it: a
		// requester woken by the cancel finds o ended, and gets its error.
		r.note(o)
		last, next = o.slot, r.sched.finish(o.slot)
		t.after = next
		r.sched.ended()
	}()
	r.check() // an order that gets its worker after a cancel does not start
	_, err = t.body.run(t.ctx)
	return o.slot, nil
}

// end marks o ended. An order nobody waited for ends without a lock;
// one that was waited for makes its waiters active again, and names them
// in its failure.
func (r *runMode) end(o *order) {
	if o.state.CompareAndSwap(orderRunning, orderEnded) {
		if r.active.Add(-1) == 0 {
			r.mu.Lock()
			r.checkDeadlock()
			r.mu.Unlock()
		}
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if oe, ok := o.err.(*OrderError); ok && oe.Order == o.id {
		oe.Requesters = requesters(o)
	}
	o.state.Store(orderEnded)
	for _, w := range o.waiters { // they can go on: active again, resuming
		if w.waitsFor == o {
			r.unwait(w)
			r.active.Add(1)
			r.sched.queue(w.resume)
		}
	}
	r.active.Add(-1)
	r.checkDeadlock()
}

// get suspends the order c runs until o has ended, unless it has. The
// order registers its wait before it hands its worker over: o may need
// that worker to run (on one worker it does), and an o that ended in
// between would find nobody waiting, so that the worker would go on with
// its new orders ahead of the waiter, which would queue itself only
// after them. The order that ends o queues the waiter's resume task, so
// that the waiter wakes only when a worker hands itself over (on the
// task's channel); a deadlock or the run's end wakes it with -1, and it
// queues the task itself.
func (r *runMode) get(c *Ctx, o *order) error {
	if o.state.Load() == orderEnded {
		return nil
	}
	r.stopped(c.ord)
	t, spare := r.sched.suspend(c.ord)
	if !r.wait(c.ord, o, t) {
		r.sched.unsuspend(c.ord, spare)
		r.ran(c.ord)
		return r.waitErr(o)
	}
	r.sched.handOver(c.ord.slot, spare)
	if r.onHandOver != nil {
		r.onHandOver(o)
	}
	slot := <-t.ch
	if slot < 0 {
		r.sched.queue(t)
		slot = <-t.ch
	}
	c.ord.slot = slot
	r.ran(c.ord)
	return r.waitErr(o)
}

// waitErr is what a Get of o returns once its order goes on: nil when o
// has ended, else the run's end or its deadlock, which woke the order.
func (r *runMode) waitErr(o *order) error {
	if o.state.Load() == orderEnded {
		return nil
	}
	r.check()
	return r.deadErr
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

// wait registers w as waiting for o, to resume by t, and reports true;
// false when o has ended, or the run has (by a deadlock, a failure or
// the caller), and w is not to wait. The order that ends o makes w
// active again and queues t.
func (r *runMode) wait(w, o *order, t *task) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.deadErr != nil || r.ctx.Err() != nil {
		return false
	}
	if !o.state.CompareAndSwap(orderRunning, orderWaited) && o.state.Load() == orderEnded {
		return false
	}
	r.active.Add(-1)
	w.waitsFor, w.waitAt = o, len(r.waiting)
	r.waiting = append(r.waiting, w)
	if o.waiters == nil {
		o.waiters = o.firstWaiter[:0]
	}
	o.waiters = append(o.waiters, w)
	r.checkDeadlock()
	return true
}

// stopWaits makes every waiting order active again and wakes it with -1:
// the run has deadlocked or ended. The caller holds r.mu.
func (r *runMode) stopWaits() {
	for _, w := range r.waiting {
		w.waitsFor = nil
		r.active.Add(1)
		w.resume.ch <- -1
	}
	clear(r.waiting)
	r.waiting = r.waiting[:0]
}

// unwait takes w out of the waiting orders. The caller holds r.mu.
func (r *runMode) unwait(w *order) {
	last := r.waiting[len(r.waiting)-1]
	r.waiting[w.waitAt], last.waitAt = last, w.waitAt
	r.waiting[len(r.waiting)-1] = nil
	r.waiting = r.waiting[:len(r.waiting)-1]
	w.waitsFor = nil
}

// checkDeadlock sets deadErr and wakes every waiter when no order can go
// on: none is active and some wait. The caller holds r.mu.
func (r *runMode) checkDeadlock() {
	if r.active.Load() > 0 || len(r.waiting) == 0 || r.deadErr != nil {
		return
	}
	d := &DeadlockError{}
	for _, w := range r.waiting {
		d.Waits = append(d.Waits, Wait{Order: w.id, Proc: w.proc, For: w.waitsFor.id, ForProc: w.waitsFor.proc})
	}
	sortWaits(d.Waits)
	r.deadErr = d
	r.stopWaits()
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
