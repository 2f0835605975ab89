package orders

import (
	"slices"
	"sync"
	"time"

	"github.com/presage-dvm/presage/orders/measured"
	"github.com/presage-dvm/presage/orders/ordersched"
)

// pool hands out the cores of a run in worker processes (the
// coordinator's) by one of the rules of package ordersched, as
// sim/ordersim hands out nodes of one core, so that a real run can check
// the simulator's prediction for the same rule (run mode in one process
// follows the same rules with sched, without a lock shared by its
// workers):
//
//   - an order suspended in Get frees its worker; when its result arrives
//     it resumes on that worker, ahead of any new order, or, unless
//     pinned (Config.Pin; migrate here), on the lowest-numbered free
//     worker when its own is busy (resuming orders then take their turn
//     in the order their results arrived);
//   - FIFO: new orders wait in one queue; a free worker takes its head,
//     the lowest-numbered worker holding no suspended order first;
//   - LeastLoaded: an order is placed when made on the worker with the
//     fewest unfinished orders, in that worker's queue, oldest first;
//   - Locality: on its parent's worker, unless that one has more than
//     slack unfinished orders above the least loaded;
//   - WorkStealing: on its parent's worker's deque; a worker runs its
//     newest order first, and when it has none steals the oldest order
//     of a worker drawn at random among those with orders.
//
// In worker processes (pool.ahead) a busy worker is also given, up to
// ahead (and more, up to aheadMax, when its orders end before the next
// start reaches its process: starved), the new orders it would take next
// once free, which its process starts the moment it frees
// (dispatchAhead, begin), and a worker left
// free takes back the newest of them from the worker holding the most
// (reclaim), as does an order about to resume on a worker holding any
// (askBackFor); a worker holding any takes no other.
//
// Every decision is taken under one lock by dispatch, after each change,
// the way the simulator's dispatch runs once per simulated moment: the
// coordinator's decisions cost little beside the messages that carry
// them, and pool keeps the rules exactly (a lost process's orders move
// by them too).
type pool struct {
	mu        sync.Mutex
	rule      ordersched.Name
	migrate   bool
	slack     int
	rng       ordersched.Rand
	workers   []worker
	left      int       // workers not lost
	queue     []*ticket // FIFO: new orders, oldest first
	resumable []*ticket // with migrate: orders whose result arrived, in that order
	// collect keeps the tickets given (or given up) in given, for the
	// coordinator to act on once its own decision is taken (takeGiven),
	// rather than sending each on a channel a goroutine waits on.
	collect bool
	given   []*ticket
	// ahead is how many orders a busy worker may be given beyond its own
	// (Config.Ahead, in worker processes): its process starts them the
	// moment it frees, without the round trip of its end to the
	// coordinator and their start back, and says which (begin). A worker
	// whose order ends before the next given ahead has reached its
	// process takes one more, up to aheadMax (starved).
	ahead, aheadMax int
	// reclaims are the orders given ahead that a worker left with nothing
	// to run takes back (the coordinator asks their worker process, which
	// answers whether they started: takeBack, settle), since the
	// coordinator's last look; inFlight counts those not answered yet.
	reclaims []*ticket
	inFlight int

	start time.Time
}

// worker is one worker's state and measurement.
type worker struct {
	running   bool
	lost      bool      // its process was lost (a run in several processes): it takes nothing more
	suspended int       // orders suspended on it, waiting for a result
	load      int       // LeastLoaded, Locality: unfinished orders placed on it
	resume    []*ticket // without migrate: orders ready to resume on it
	local     []*ticket // LeastLoaded, Locality, WorkStealing: new orders placed on it
	// next are the orders given ahead (pool.ahead), oldest first: its
	// process starts one whenever it frees, and says which (begin). A
	// worker holding any is not free, running or not. grown is how many
	// it may hold beyond pool.ahead (starved).
	next  []*ticket
	grown int

	// Since when it is in its state (running, waiting with suspended
	// orders, or idle), and its time so far in each.
	since time.Time
	times measured.Worker
}

// ticket is an order waiting for a worker. Under the pool's lock, give
// sets worker, or sends it on ch when the order already waits there
// (most orders are given a worker at once, and need no channel), or,
// with pool.collect, files it for takeGiven.
type ticket struct {
	worker int  // -1 until given
	lost   bool // given up before its order waited: see pool.lose
	ch     chan int
	home   int  // where it was placed, or the worker it suspended on
	resume bool // it resumes a suspended order
	ahead  bool // given while its worker ran another order (pool.ahead)
	// reclaiming: asked back from its worker process, for a worker left
	// with nothing to run; settled: its worker process had started it
	// when asked: it is not asked again.
	reclaiming, settled bool
	forResume           bool // reclaiming for an order to resume on its worker (askBackFor), not for a free worker (reclaim)
	// then is what the coordinator does once the ticket is given (the
	// worker, -1 when given up); order is the order it places, for the
	// coordinator's asking back of orders given ahead.
	then  func(worker int)
	order *tracked
}

// takeGiven returns the tickets given or given up since its last call,
// with pool.collect.
func (p *pool) takeGiven() []*ticket {
	p.mu.Lock()
	defer p.mu.Unlock()
	g := p.given
	p.given = nil
	return g
}

// wait returns t's worker, waiting for it.
func (p *pool) wait(t *ticket) int {
	p.mu.Lock()
	if t.worker >= 0 || t.lost {
		p.mu.Unlock()
		return t.worker
	}
	t.ch = make(chan int, 1)
	p.mu.Unlock()
	return <-t.ch
}

func newPool(n int, rule ordersched.Name, migrate bool, seed uint64) *pool {
	p := &pool{rule: rule, migrate: migrate, slack: 1, rng: ordersched.NewRand(seed), workers: make([]worker, n), left: n, start: time.Now()}
	for i := range p.workers {
		p.workers[i].since = p.start
	}
	return p
}

// tick charges worker i's time since its last change to the state it was
// in; it is called before every change of that state.
func (p *pool) tick(i int, now time.Time) {
	w := &p.workers[i]
	d := now.Sub(w.since).Seconds()
	if d < 0 {
		return // measure's end, before a change after main ended (an order started ahead began)
	}
	w.since = now
	switch {
	case w.running:
		w.times.Busy += d
	case w.suspended > 0:
		w.times.Waiting += d
	default:
		w.times.Idle += d
	}
}

// measure returns every worker's time up to end, when the last order ended.
func (p *pool) measure(end time.Time) []measured.Worker {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := make([]measured.Worker, len(p.workers))
	for i := range p.workers {
		p.tick(i, end)
		out[i] = p.workers[i].times
	}
	return out
}

// place files a new order made by an order running on worker parent (-1
// for the main order, whose arguments are on worker 0) and returns its
// ticket; the order's goroutine waits on it.
func (p *pool) place(parent int) *ticket {
	t := &ticket{worker: -1}
	src := max(parent, 0)
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.left == 0 {
		p.giveUp(t)
		return t
	}
	switch p.rule {
	case ordersched.FIFO:
		p.queue = append(p.queue, t)
	case ordersched.WorkStealing:
		t.home = src
		p.workers[src].local = append(p.workers[src].local, t)
	default:
		t.home = p.choose(src, parent >= 0)
		p.workers[t.home].load++
		p.workers[t.home].local = append(p.workers[t.home].local, t)
	}
	p.dispatch(time.Now())
	return t
}

// choose is the worker LeastLoaded and Locality place a new order on.
func (p *pool) choose(src int, hasParent bool) int {
	least := -1
	for i := range p.workers {
		if !p.workers[i].lost && (least < 0 || p.workers[i].load < p.workers[least].load) {
			least = i
		}
	}
	if p.rule == ordersched.Locality && hasParent && !p.workers[src].lost && p.workers[src].load <= p.workers[least].load+p.slack {
		return src
	}
	return least
}

// suspend frees worker i, whose order waits for a result, and reports
// whether orders given ahead wait for it: its process, which cannot
// tell a wait from a result that is there, must then be told the core is
// free (the coordinator's hRelease), and starts one of them.
func (p *pool) suspend(i int) (release bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	now := time.Now()
	p.tick(i, now)
	w := &p.workers[i]
	w.running = false
	w.suspended++
	p.dispatch(now)
	return len(w.next) > 0
}

// resumeFrom files the order suspended on worker i, whose result
// arrived, and returns its ticket.
func (p *pool) resumeFrom(i int) *ticket {
	t := &ticket{worker: -1, home: i, resume: true}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.migrate {
		p.resumable = append(p.resumable, t)
	} else {
		p.workers[i].resume = append(p.workers[i].resume, t)
		p.askBackFor(i)
	}
	p.dispatch(time.Now())
	return t
}

// askBackFor asks back the orders given ahead to worker i, on which an
// order is to resume: it resumes ahead of any new order once the order
// running there ends, and they go elsewhere by the rule. Its process
// keeps those it started already (settle). The caller holds p.mu.
func (p *pool) askBackFor(i int) {
	for _, t := range slices.Backward(p.workers[i].next) {
		if !t.reclaiming && !t.settled {
			t.reclaiming, t.forResume = true, true
			p.reclaims = append(p.reclaims, t)
		}
	}
}

// finish frees worker i, whose order ended.
func (p *pool) finish(i int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	now := time.Now()
	p.tick(i, now)
	w := &p.workers[i]
	w.running = false
	if p.tracksLoad() {
		w.load--
	}
	p.dispatch(now)
}

// begin runs on worker i order t, given ahead to it, which its process
// started (as it freed, or as t came and found it free).
func (p *pool) begin(i int, t *ticket) {
	p.mu.Lock()
	defer p.mu.Unlock()
	w := &p.workers[i]
	k := slices.Index(w.next, t)
	if k < 0 {
		return // its worker was lost meanwhile
	}
	now := time.Now()
	p.tick(i, now)
	w.next = slices.Delete(w.next, k, k+1)
	w.running = true
	p.dispatch(now)
}

// busy reports whether worker i runs an order or has orders given ahead
// that its process will start: it takes no other.
func (w *worker) busy() bool { return w.running || len(w.next) > 0 }

// takeReclaims returns the orders to ask back since its last call.
func (p *pool) takeReclaims() []*ticket {
	p.mu.Lock()
	defer p.mu.Unlock()
	g := p.reclaims
	p.reclaims = nil
	return g
}

// reclaim asks back, for each worker left free after dispatch with none
// asked for it yet, the newest order given ahead to the worker holding
// the most: it runs sooner on the free one than behind the orders before
// it. The caller holds p.mu.
func (p *pool) reclaim() {
	free := 0
	for i := range p.workers {
		if w := &p.workers[i]; !w.busy() && !w.lost {
			free++
		}
	}
	for ; free > p.inFlight; p.inFlight++ {
		var best *ticket
		most := 0
		for i := range p.workers {
			n, last := 0, (*ticket)(nil)
			for _, t := range p.workers[i].next {
				if !t.reclaiming && !t.settled {
					n, last = n+1, t
				}
			}
			if n > most {
				most, best = n, last
			}
		}
		if best == nil {
			return
		}
		best.reclaiming = true
		p.reclaims = append(p.reclaims, best)
	}
}

// answered notes that t's process answered its asking back (or its
// worker was lost meanwhile): the caller holds p.mu.
func (p *pool) answered(t *ticket) {
	if !t.forResume {
		p.inFlight--
	}
	t.reclaiming, t.forResume = false, false
}

// takeBack files again order t, asked back from worker i's process,
// which had not started it: it goes to a free worker by the rule.
func (p *pool) takeBack(i int, t *ticket) {
	p.mu.Lock()
	defer p.mu.Unlock()
	w := &p.workers[i]
	k := slices.Index(w.next, t)
	if !t.reclaiming || k < 0 {
		return // its worker was lost meanwhile
	}
	w.next = slices.Delete(w.next, k, k+1)
	w.times.Orders--
	p.answered(t)
	t.ahead, t.worker = false, -1
	switch p.rule {
	case ordersched.FIFO:
		p.queue = slices.Insert(p.queue, 0, t)
	default:
		if p.tracksLoad() {
			w.load--
		}
		p.refile(t)
	}
	p.dispatch(time.Now())
}

// settle leaves order t with its worker, whose process had started it
// when asked back, and reports
// whether it is still given ahead there (its process's word that it
// started comes first, and has taken it out: begin).
func (p *pool) settle(t *ticket) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !t.reclaiming {
		return false // its worker was lost meanwhile
	}
	p.answered(t)
	t.settled = true
	p.dispatch(time.Now())
	return slices.Contains(p.workers[t.worker].next, t)
}

// retract takes back ticket t, given ahead to worker i, whose order
// will not start there after all (its arguments or the node its start
// went through were lost), and reports whether t was still given ahead:
// false once it took its worker. A worker it leaves free takes other
// orders at once: the order itself may not be placed again soon (its
// maker must make it again first).
func (p *pool) retract(i int, t *ticket) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	w := &p.workers[i]
	k := slices.Index(w.next, t)
	if k < 0 {
		return false
	}
	w.next = slices.Delete(w.next, k, k+1)
	w.times.Orders--
	if t.reclaiming {
		p.answered(t)
	}
	p.dispatch(time.Now())
	return true
}

func (p *pool) tracksLoad() bool {
	return p.rule == ordersched.LeastLoaded || p.rule == ordersched.Locality
}

// dispatch gives the free workers the orders the rule gives them: first
// the orders resuming on each, then those placed on each, then (with
// migrate) the resumable ones, then new orders by FIFO's queue or by
// stealing. The caller holds p.mu.
func (p *pool) dispatch(now time.Time) {
	for i := range p.workers {
		w := &p.workers[i]
		if w.lost {
			continue
		}
		for !w.busy() && len(w.resume) > 0 {
			p.give(w.resume[0], i, now)
			w.resume = w.resume[1:]
		}
		if !w.busy() && len(w.local) > 0 {
			p.serveLocal(i, now)
		}
	}
	if p.migrate {
		for len(p.resumable) > 0 {
			t := p.resumable[0]
			i := t.home
			if p.workers[i].busy() {
				if i = p.firstFree(false); i < 0 {
					break
				}
			}
			p.resumable = p.resumable[1:]
			p.give(t, i, now)
		}
	}
	switch p.rule {
	case ordersched.FIFO:
		for len(p.queue) > 0 {
			i := p.firstFree(true)
			if i < 0 {
				i = p.firstFree(false)
			}
			if i < 0 {
				break
			}
			p.give(p.queue[0], i, now)
			p.queue = p.queue[1:]
		}
	case ordersched.WorkStealing:
		for i := range p.workers {
			if !p.workers[i].busy() && !p.workers[i].lost {
				p.steal(i, now)
			}
		}
	}
	if p.ahead > 0 {
		p.dispatchAhead()
		p.reclaim()
	}
}

// dispatchAhead gives the busy workers, up to pool.ahead each, the
// new orders they would take next by the rule once free: FIFO's head to
// the busy worker holding the fewest (the lowest-numbered among them),
// the orders placed on each (its newest under
// WorkStealing, which steals none ahead). Resuming orders are never
// given ahead: they wait for the coordinator's answer anyway. The
// caller holds p.mu, after dispatch served the free workers.
func (p *pool) dispatchAhead() {
	if p.rule == ordersched.FIFO {
		for len(p.queue) > 0 {
			i := p.firstToQueue()
			if i < 0 {
				return
			}
			p.giveAhead(p.queue[0], i)
			p.queue = p.queue[1:]
		}
		return
	}
	for i := range p.workers {
		w := &p.workers[i]
		for p.takesAhead(w) && len(w.local) > 0 {
			var t *ticket
			if p.rule == ordersched.WorkStealing {
				t, w.local = w.local[len(w.local)-1], w.local[:len(w.local)-1]
			} else {
				t, w.local = w.local[0], w.local[1:]
			}
			p.giveAhead(t, i)
		}
	}
}

// takesAhead reports whether worker w may be given another order ahead:
// it is busy, holds fewer than pool.ahead and what it grew since, and no
// order waits to resume on it, which would otherwise wait for every order
// the rule gives it meanwhile.
func (p *pool) takesAhead(w *worker) bool {
	return w.busy() && !w.lost && len(w.next) < p.ahead+w.grown && len(w.resume) == 0
}

// starved notes that worker i's order ended and its process had no
// order given ahead to start: when one was given, its start had not
// arrived (the orders ahead took less time than a round trip), and the
// worker takes one more ahead from now on, up to pool.aheadMax.
func (p *pool) starved(i int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if w := &p.workers[i]; len(w.next) > 0 && p.ahead+w.grown < p.aheadMax {
		w.grown++
	}
}

// firstToQueue returns the worker with the fewest orders given ahead of
// those that take one, the lowest-numbered among them; -1 if none.
func (p *pool) firstToQueue() int {
	best := -1
	for i := range p.workers {
		w := &p.workers[i]
		if p.takesAhead(w) && (best < 0 || len(w.next) < len(p.workers[best].next)) {
			best = i
		}
	}
	return best
}

// giveAhead gives new order t to busy worker i, whose process starts it
// once it frees (begin).
func (p *pool) giveAhead(t *ticket, i int) {
	w := &p.workers[i]
	w.next = append(w.next, t)
	w.times.Orders++
	t.ahead = true
	p.hand(t, i)
}

// firstFree returns the lowest-numbered worker not busy, -1 if none;
// vacant asks for one holding no suspended order either.
func (p *pool) firstFree(vacant bool) int {
	for i := range p.workers {
		if w := &p.workers[i]; !w.busy() && !w.lost && (!vacant || w.suspended == 0) {
			return i
		}
	}
	return -1
}

// serveLocal starts the next order placed on free worker i: the newest
// under WorkStealing, the oldest otherwise.
func (p *pool) serveLocal(i int, now time.Time) {
	w := &p.workers[i]
	if p.rule == ordersched.WorkStealing {
		last := len(w.local) - 1
		t := w.local[last]
		w.local = w.local[:last]
		p.give(t, i, now)
		return
	}
	t := w.local[0]
	w.local = w.local[1:]
	p.give(t, i, now)
}

// steal gives free worker i the oldest order of a worker drawn among
// those with orders placed on them, when there is one. It counts them
// and walks to the one drawn, rather than listing them: it runs at every
// dispatch.
func (p *pool) steal(i int, now time.Time) {
	victims := 0
	for v := range p.workers {
		if len(p.workers[v].local) > 0 {
			victims++
		}
	}
	if victims == 0 {
		return
	}
	k := p.rng.Intn(victims)
	for v := range p.workers {
		w := &p.workers[v]
		if len(w.local) == 0 {
			continue
		}
		if k > 0 {
			k--
			continue
		}
		t := w.local[0]
		w.local = w.local[1:]
		p.give(t, i, now)
		return
	}
}

// give starts ticket t's order on free worker i.
func (p *pool) give(t *ticket, i int, now time.Time) {
	p.tick(i, now)
	w := &p.workers[i]
	w.running = true
	if t.resume {
		if t.home != i { // migrating: its suspension and its load move with it
			p.tick(t.home, now)
			if p.tracksLoad() {
				p.workers[t.home].load--
				w.load++
			}
		}
		p.workers[t.home].suspended--
	} else {
		w.times.Orders++
	}
	p.hand(t, i)
}

// hand tells the order waiting on t that it has worker i: on its
// channel when it waits there, or filed for takeGiven.
func (p *pool) hand(t *ticket, i int) {
	t.worker = i
	if t.ch != nil {
		t.ch <- i
	}
	if p.collect {
		p.given = append(p.given, t)
	}
}

// lose takes workers out of the pool: their process was lost, in a run in
// several processes. The orders suspended on them will not resume (their
// tickets are given -1: the coordinator runs those orders again); the
// new orders placed on them move to the others by the rule; a lost
// worker counts as idle no more.
func (p *pool) lose(workers []int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	now := time.Now()
	var moved []*ticket
	for _, i := range workers {
		p.tick(i, now)
		w := &p.workers[i]
		if !w.lost {
			p.left--
		}
		w.lost, w.running, w.suspended, w.load = true, false, 0, 0
		for _, t := range w.resume {
			p.giveUp(t)
		}
		moved = append(moved, w.local...)
		// The orders given ahead started as far as the coordinator
		// knows: it runs them again, as the one that ran there.
		for _, t := range w.next {
			if t.reclaiming {
				p.answered(t)
			}
		}
		w.resume, w.local, w.next = nil, nil, nil
	}
	kept := p.resumable[:0]
	for _, t := range p.resumable {
		if p.workers[t.home].lost {
			p.giveUp(t)
		} else {
			kept = append(kept, t)
		}
	}
	p.resumable = kept
	for _, t := range moved {
		p.refile(t)
	}
	p.dispatch(now)
}

// uncount takes back an order started on worker i, whose process was
// lost: the order runs again elsewhere, and counts there.
func (p *pool) uncount(i int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.workers[i].times.Orders--
}

// giveUp tells the order waiting on t that it will get no worker.
func (p *pool) giveUp(t *ticket) {
	t.worker = -1
	if t.ch != nil {
		t.ch <- -1
	} else {
		t.lost = true
	}
	if p.collect {
		p.given = append(p.given, t)
	}
}

// refile places again a new order whose worker was lost, or gives it up
// when no worker is left.
func (p *pool) refile(t *ticket) {
	if p.left == 0 {
		p.giveUp(t)
		return
	}
	switch p.rule {
	case ordersched.WorkStealing:
		t.home = p.firstFree(false)
		if t.home < 0 {
			t.home = p.choose(0, false)
		}
		p.workers[t.home].local = append(p.workers[t.home].local, t)
	default:
		t.home = p.choose(0, false)
		p.workers[t.home].load++
		p.workers[t.home].local = append(p.workers[t.home].local, t)
	}
}
