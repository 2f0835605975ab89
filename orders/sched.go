package orders

import (
	"sync"
	"sync/atomic"
	"time"

	"github.com/presage-dvm/presage/orders/measured"
	"github.com/presage-dvm/presage/orders/ordersched"
)

// sched runs run mode's orders on Workers workers, as Go's own scheduler
// runs goroutines on its Ps: each worker has its own queues and its own
// lock, and no lock is shared by all of them, so that two workers take,
// run and end orders without waiting for each other.
//
// A worker is a goroutine running loop: it takes a task and runs the
// order's body itself, then the next; making an order starts no
// goroutine. An order that suspends in Get keeps the goroutine it runs
// on, registers its wait, and only then hands its worker to another loop
// (a spare, else a new one), so that the awaited order, which may run on
// that worker, cannot end unseen; the order that ends the awaited one
// queues the waiter's resume task, and the worker that takes it hands
// itself over to the waiter and waits as a spare.
//
// Each worker has two queues under its lock: resume, the orders resuming
// on it, oldest first; local, the new orders placed on it. A free worker
// takes, in this order (ordersched's rules, as pool applies them under
// one lock for the worker processes):
//
//   - the oldest order resuming on it;
//   - its oldest new order (its newest under WorkStealing); under FIFO
//     with migration only when no order waits to resume on another
//     worker, for FIFO's new orders come after every resuming one;
//   - unless pinned (Config.Pin), the oldest order resuming on another
//     worker, the lowest-numbered first;
//   - FIFO: its own oldest new order, else the oldest of another worker,
//     the lowest-numbered first: an order is queued on its maker's
//     worker (main on worker 0), so that one program's queues together
//     are its FIFO queue, each in its order; WorkStealing: the oldest new
//     order of a victim drawn at random among the workers with new
//     orders. LeastLoaded and Locality place an order on a worker when it
//     is made (on the fewest unfinished orders, counted without a lock)
//     and only that worker takes it.
//
// A worker with nothing to take parks. Whoever queues a task wakes a
// parked worker that may take it: under FIFO the lowest-numbered one
// holding no suspended order first, then the lowest-numbered. A worker
// says it parks before it looks at the queues a last time, and a maker
// queues before it looks for parked workers (both through sequentially
// consistent atomics), so that a task is never left with every worker
// asleep.
//
// The times of a worker (busy, waiting, idle) change under its own lock,
// at each change of its state.
type sched struct {
	rule    ordersched.Name
	migrate bool
	slack   int
	workers []slot
	// parked counts the parked workers: a maker with none to wake does
	// not look for them.
	parked  atomic.Int32
	closing atomic.Bool
	// done is closed when the run is over (closing).
	done chan struct{}
	// live counts the orders made and not ended; when it falls to 0 the
	// run is over and the loops end (closing). Every order writes it
	// twice, from the worker of its maker and from its own: it has a
	// cache line of its own, so that the fields read at every decision
	// are not fetched again from the other core each time.
	_    [64]byte
	live atomic.Int64
	_    [56]byte
	// exec runs a new order's body on worker i and returns the worker it
	// ended on (it may resume on another) and the task finish started
	// there next, if any.
	exec  func(t *task, i int) (int, *task)
	start time.Time
}

// slot is one worker; its fields after mu are guarded by it, except the
// atomics. The padding keeps two workers' locks off one cache line.
type slot struct {
	_       [64]byte
	mu      sync.Mutex
	running bool
	// suspended counts the orders suspended on it (written under mu,
	// read without it to choose which worker to wake).
	suspended atomic.Int32
	load      atomic.Int64 // LeastLoaded, Locality: unfinished orders placed on it
	resume    queue
	local     queue
	asleep    atomic.Bool   // parked in loop, waiting on wake
	spares    []chan int    // loops that handed it over, each waiting for a worker on its channel
	wake      chan struct{} // one token per wake-up
	rng       ordersched.Rand
	since     time.Duration // since when it is in its state, from the run's start
	times     measured.Worker
}

// task is an order for a worker: a new order to run, or a suspended
// order to resume, which waits on ch for the worker that takes it.
type task struct {
	o    *order
	body orderBody
	ctx  *Ctx // a new order's
	ch   chan int
	home int // a resumed order's worker, or where a new one was placed
	// after is the task its worker started when a new order ended
	// (exec returns it too).
	after *task
}

func newSched(n int, rule ordersched.Name, migrate bool, seed uint64, exec func(*task, int) (int, *task)) *sched {
	s := &sched{rule: rule, migrate: migrate, slack: 1, workers: make([]slot, n), exec: exec, done: make(chan struct{}), start: time.Now()}
	for i := range s.workers {
		w := &s.workers[i]
		w.wake = make(chan struct{}, 1)
		// One generator per worker, for the worker draws its victims
		// itself; worker 0's is the simulator's generator of the seed.
		w.rng = ordersched.NewRand(seed + uint64(i)*0x632be59bd9b4e019)
	}
	// The workers start parked, so that the first order goes where the
	// rule puts it (main to worker 0), not to whichever loop runs first.
	s.parked.Store(int32(n))
	for i := range s.workers {
		s.workers[i].asleep.Store(true)
		go func() {
			<-s.workers[i].wake
			s.loop(i, nil)
		}()
	}
	return s
}

// loop is a worker's goroutine, worker i's first, t the task started on
// it if any: it runs new orders until it hands its worker to a resuming
// order; then it waits as a spare of that worker, for an order
// suspending there, whose worker it goes on with. It ends with the run.
func (s *sched) loop(i int, t *task) {
	var me chan int // as a spare
	var cur *task   // the order running
	defer func() {
		if cur != nil {
			// Its body called runtime.Goexit, which ended it as if it
			// returned and ends this goroutine: its worker goes on in
			// another.
			go s.loop(cur.o.slot, cur.after)
		}
	}()
	for {
		if t == nil {
			if t = s.next(i); t == nil {
				return
			}
		}
		switch {
		case t.ch != nil:
			if me == nil {
				me = make(chan int, 1)
			}
			w := &s.workers[i]
			w.mu.Lock()
			w.spares = append(w.spares, me)
			w.mu.Unlock()
			t.ch <- i
			if i, t = <-me, nil; i < 0 {
				return
			}
		default:
			cur = t
			i, t = s.exec(t, i)
			cur = nil
		}
	}
}

// next waits for worker i's next task, and starts it; nil when the run is
// over.
func (s *sched) next(i int) *task {
	w := &s.workers[i]
	for {
		if t := s.take(i); t != nil {
			s.begin(i, t)
			return t
		}
		if s.closing.Load() {
			return nil
		}
		w.asleep.Store(true)
		s.parked.Add(1)
		t := s.take(i) // a last look, now that makers see it parked
		if t != nil || s.closing.Load() {
			if w.asleep.CompareAndSwap(true, false) {
				s.parked.Add(-1)
			} else {
				<-w.wake // woken meanwhile: take the token, or the next wake-up would be lost
			}
			if t == nil {
				return nil
			}
			s.begin(i, t)
			return t
		}
		<-w.wake
	}
}

// take returns a task worker i may start, nil if none, by the rule (see
// sched).
func (s *sched) take(i int) *task {
	w := &s.workers[i]
	if w.resume.size.Load() > 0 || w.local.size.Load() > 0 {
		w.mu.Lock()
		t := s.own(i)
		w.mu.Unlock()
		if t != nil {
			return t
		}
	}
	if s.migrate {
		if t := s.takeResuming(i); t != nil {
			return t
		}
	}
	switch s.rule {
	case ordersched.FIFO:
		if w.local.size.Load() > 0 { // left for the others' resuming orders
			w.mu.Lock()
			t := w.local.front()
			w.mu.Unlock()
			if t != nil {
				return t
			}
		}
		return s.stealOldest(i)
	case ordersched.WorkStealing:
		return s.steal(i)
	}
	return nil
}

// own takes worker i's next task from its own queues, nil if none: the
// oldest order resuming there, else its oldest new order (newest under
// WorkStealing). Under FIFO, new orders come after the orders resuming
// on other workers (migrating): new orders are the rule's one queue
// there, which comes last. The caller holds i's lock.
func (s *sched) own(i int) *task {
	w := &s.workers[i]
	if t := w.resume.front(); t != nil {
		return t
	}
	switch {
	case s.rule == ordersched.WorkStealing:
		return w.local.back()
	case s.rule == ordersched.FIFO && s.migrate && s.resumingElsewhere(i):
		return nil
	}
	return w.local.front()
}

// resumingElsewhere reports whether an order waits to resume on a worker
// other than i.
func (s *sched) resumingElsewhere(i int) bool {
	for v := range s.workers {
		if v != i && s.workers[v].resume.size.Load() > 0 {
			return true
		}
	}
	return false
}

// takeResuming returns the oldest order resuming on the first other
// worker, lowest number first, that has one.
func (s *sched) takeResuming(i int) *task {
	for v := range s.workers {
		w := &s.workers[v]
		if v == i || w.resume.size.Load() == 0 {
			continue
		}
		w.mu.Lock()
		t := w.resume.front()
		w.mu.Unlock()
		if t != nil {
			return t
		}
	}
	return nil
}

// stealBatch is the most new orders a FIFO worker with none of its own
// takes from another worker at once (never more than half of them, and at
// least one): it runs the first and queues the others as its own. One at
// a time, two workers fed by one maker took the maker's lock, and moved
// its queue's lines between their cores, at every order: 65,536 orders of
// 5 µs ran 1.40–1.47 times as fast on two workers as on one, and 1.66–1.77
// times in batches of 16 (BenchmarkSpeedup; plain goroutines 1.90–1.96).
// So FIFO is first in, first out within each worker's queue and across
// them up to a batch: a worker may start a newer order of its own while
// up to stealBatch−1 older ones wait in another's (docs/orders-sim.md,
// "Schedulers").
const stealBatch = 16

// stealOldest returns the oldest new order of the first other worker,
// lowest number first, that has any, and moves the next ones of that
// worker's queue, up to a batch (stealBatch), to worker i's own queue;
// nil if no worker has a new order. i's own queue is empty (FIFO takes
// its own orders first), so the batch keeps its order there.
func (s *sched) stealOldest(i int) *task {
	var batch [stealBatch]*task
	for v := range s.workers {
		w := &s.workers[v]
		if v == i || w.local.size.Load() == 0 {
			continue
		}
		w.mu.Lock()
		n, k := 0, max(1, min(int(w.local.size.Load())/2, stealBatch))
		for ; n < k; n++ {
			if batch[n] = w.local.front(); batch[n] == nil {
				break
			}
		}
		w.mu.Unlock()
		if n == 0 {
			continue
		}
		if n > 1 {
			me := &s.workers[i]
			me.mu.Lock()
			for _, t := range batch[1:n] {
				t.home = i
				me.local.push(t)
			}
			me.mu.Unlock()
		}
		return batch[0]
	}
	return nil
}

// steal returns the oldest new order of a victim drawn among the other
// workers with new orders, nil if none: a victim emptied meanwhile
// passes the turn to the next worker with new orders, round from it.
func (s *sched) steal(i int) *task {
	n := len(s.workers)
	victims := 0
	for v := range s.workers {
		if v != i && s.workers[v].local.size.Load() > 0 {
			victims++
		}
	}
	if victims == 0 {
		return nil
	}
	k, first := s.workers[i].rng.Intn(victims), 0
	for v := range s.workers {
		if v != i && s.workers[v].local.size.Load() > 0 {
			if k == 0 {
				first = v
				break
			}
			k--
		}
	}
	for j := range n {
		v := (first + j) % n
		w := &s.workers[v]
		if v == i || w.local.size.Load() == 0 {
			continue
		}
		w.mu.Lock()
		t := w.local.front()
		w.mu.Unlock()
		if t != nil {
			return t
		}
	}
	return nil
}

// begin starts task t on worker i: charges i's time so far, counts a new
// order there, and moves a resumed order's suspension (and its load) to
// i from the worker it suspended on.
func (s *sched) begin(i int, t *task) {
	w := &s.workers[i]
	w.mu.Lock()
	s.tick(w, s.now())
	w.running = true
	if t.ch == nil {
		w.times.Orders++
	} else if t.home == i {
		w.suspended.Add(-1)
	}
	w.mu.Unlock()
	if t.ch == nil || t.home == i {
		return
	}
	h := &s.workers[t.home]
	h.mu.Lock()
	s.tick(h, s.now())
	h.suspended.Add(-1)
	h.mu.Unlock()
	if s.tracksLoad() {
		h.load.Add(-1)
		w.load.Add(1)
	}
}

// now is the time since the run started. It reads only the monotonic
// clock (time.Since of a time that has its reading), half the cost of
// time.Now, which reads the wall clock too: it is read at every change
// of a worker's state.
func (s *sched) now() time.Duration { return time.Since(s.start) }

// tick charges worker w's time since its last change to the state it was
// in; the caller holds w.mu, and read now under it, so that the changes
// of a worker's state are in the order of their times.
func (s *sched) tick(w *slot, now time.Duration) {
	d := (now - w.since).Seconds()
	w.since = now
	switch {
	case w.running:
		w.times.Busy += d
	case w.suspended.Load() > 0:
		w.times.Waiting += d
	default:
		w.times.Idle += d
	}
}

func (s *sched) tracksLoad() bool {
	return s.rule == ordersched.LeastLoaded || s.rule == ordersched.Locality
}

// place queues new order t, made by an order running on worker parent
// (-1 for main, placed from worker 0), by the rule.
func (s *sched) place(parent int, t *task) {
	s.live.Add(1)
	src := max(parent, 0)
	h := src
	if s.tracksLoad() {
		h = s.choose(src, parent >= 0)
		s.workers[h].load.Add(1)
	}
	t.home = h
	w := &s.workers[h]
	w.mu.Lock()
	w.local.push(t)
	w.mu.Unlock()
	if s.parked.Load() == 0 {
		return
	}
	if s.tracksLoad() {
		s.wake(h) // only h takes it
		return
	}
	if !s.wake(h) {
		s.wakeAny()
	}
}

// choose is the worker LeastLoaded and Locality place a new order on,
// from the loads as they are.
func (s *sched) choose(src int, hasParent bool) int {
	least, low := 0, s.workers[0].load.Load()
	for i := 1; i < len(s.workers); i++ {
		if l := s.workers[i].load.Load(); l < low {
			least, low = i, l
		}
	}
	if s.rule == ordersched.Locality && hasParent && s.workers[src].load.Load() <= low+int64(s.slack) {
		return src
	}
	return least
}

// wake wakes worker i if it is parked, and reports whether it was.
func (s *sched) wake(i int) bool {
	w := &s.workers[i]
	if !w.asleep.CompareAndSwap(true, false) {
		return false
	}
	s.parked.Add(-1)
	w.wake <- struct{}{}
	return true
}

// wakeAny wakes a parked worker: under FIFO the lowest-numbered one
// holding no suspended order, else the lowest-numbered one.
func (s *sched) wakeAny() {
	if s.rule == ordersched.FIFO {
		for i := range s.workers {
			if s.workers[i].suspended.Load() == 0 && s.wake(i) {
				return
			}
		}
	}
	for i := range s.workers {
		if s.parked.Load() == 0 || s.wake(i) {
			return
		}
	}
}

// finish frees worker i, whose order ended, and starts there the next
// task of its own queues (own), which it returns, nil if none, under one
// lock. A worker that goes on running stays busy, and its clock is read
// only when it stops: a reading of the clock is a good part of what an
// order costs.
func (s *sched) finish(i int) *task {
	w := &s.workers[i]
	w.mu.Lock()
	defer w.mu.Unlock()
	if s.tracksLoad() {
		w.load.Add(-1)
	}
	t := s.own(i)
	if t == nil {
		s.tick(w, s.now())
		w.running = false
		return nil
	}
	if t.ch == nil {
		w.times.Orders++
	} else {
		w.suspended.Add(-1) // its own resume: home is i
	}
	return t
}

// ended counts an order's end; the last one's ends the run: the loops
// end, none being left to make or resume an order.
func (s *sched) ended() {
	if s.live.Add(-1) > 0 {
		return
	}
	s.closing.Store(true)
	close(s.done)
	for i := range s.workers {
		s.wake(i)
		w := &s.workers[i]
		w.mu.Lock()
		for _, spare := range w.spares {
			spare <- -1
		}
		w.spares = nil
		w.mu.Unlock()
	}
}

// suspend marks worker i, on which order o is to wait for a result, as
// no longer running o, counts o suspended there, and returns o's resume
// task, to queue when the result arrives, and the spare loop of the
// worker that handOver is to wake, if it has one. o keeps the worker
// until handOver: the caller registers its wait in between, so that the
// order it waits for, which may need this very worker to run, cannot
// end unseen (its end then queues the resume task, which the worker's
// next loop takes ahead of its new orders).
func (s *sched) suspend(o *order) (t *task, spare chan int) {
	i := o.slot
	w := &s.workers[i]
	w.mu.Lock()
	s.tick(w, s.now())
	w.running = false
	w.suspended.Add(1)
	// Only the goroutine holding worker i adds a spare to it, so the one
	// taken here is still the one to wake when o hands the worker over.
	if n := len(w.spares); n > 0 {
		spare = w.spares[n-1]
		w.spares = w.spares[:n-1]
	}
	w.mu.Unlock()
	if o.resume == nil {
		o.resume = &task{ch: make(chan int, 1)}
	}
	o.resume.home = i
	return o.resume, spare
}

// unsuspend undoes suspend: order o, which has not handed its worker
// over, goes on running on it (what it was to wait for has ended), and
// the spare suspend took waits again.
func (s *sched) unsuspend(o *order, spare chan int) {
	w := &s.workers[o.slot]
	w.mu.Lock()
	s.tick(w, s.now())
	w.running = true
	w.suspended.Add(-1)
	if spare != nil {
		w.spares = append(w.spares, spare)
	}
	w.mu.Unlock()
}

// handOver has a loop go on with worker i's other orders, spare (from
// suspend) if there is one, else a new loop: the order that ran there is
// suspended.
func (s *sched) handOver(i int, spare chan int) {
	if spare != nil {
		spare <- i
	} else {
		go s.loop(i, nil)
	}
}

// queue queues resume task t on the worker its order suspended on, and
// wakes a worker for it; the order gets the worker that takes it on t.ch.
func (s *sched) queue(t *task) {
	home := t.home // once queued, t is the resumed order's again
	w := &s.workers[home]
	w.mu.Lock()
	w.resume.push(t)
	w.mu.Unlock()
	if s.parked.Load() > 0 && !s.wake(home) && s.migrate {
		s.wakeAny()
	}
}

// measure returns every worker's time up to end, when the last order
// ended.
func (s *sched) measure(end time.Time) []measured.Worker {
	out := make([]measured.Worker, len(s.workers))
	for i := range s.workers {
		w := &s.workers[i]
		w.mu.Lock()
		s.tick(w, end.Sub(s.start))
		out[i] = w.times
		w.mu.Unlock()
	}
	return out
}
