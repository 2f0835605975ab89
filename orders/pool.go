package orders

import (
	"slices"
	"sync"
	"time"

	"github.com/presage-dvm/presage/orders/measured"
)

// pool hands out Workers workers the way sim/ordersim's FIFO scheduler
// hands out nodes of one core: a new order takes the lowest-numbered
// worker holding no suspended order, else the lowest free one, else waits
// its turn in one queue; an order suspended in Get frees its worker and
// resumes on it, ahead of any new order. With migrate, as with
// ordersim.Options.Migrate, it resumes on another free worker when its own
// is busy, and otherwise waits in one queue of resuming orders.
type pool struct {
	mu        sync.Mutex
	migrate   bool
	busy      []bool
	suspended []int             // orders suspended on each worker
	resume    [][]chan struct{} // orders ready to resume on each worker
	resumeAny []chan int        // with migrate: orders ready to resume anywhere
	waiting   []chan int        // new orders waiting for a worker

	// The measurement: since when each worker is in its state (busy,
	// waiting with suspended orders, or idle), and its time so far.
	start time.Time
	since []time.Time
	times []measured.Worker
}

func newPool(n int, migrate bool) *pool {
	p := &pool{migrate: migrate, busy: make([]bool, n), suspended: make([]int, n), resume: make([][]chan struct{}, n),
		since: make([]time.Time, n), times: make([]measured.Worker, n)}
	p.start = time.Now()
	for i := range p.since {
		p.since[i] = p.start
	}
	return p
}

// tick charges worker i's time since its last change to its state; it
// is called before every change.
func (p *pool) tick(i int, now time.Time) {
	d := now.Sub(p.since[i]).Seconds()
	p.since[i] = now
	w := &p.times[i]
	switch {
	case p.busy[i]:
		w.Busy += d
	case p.suspended[i] > 0:
		w.Waiting += d
	default:
		w.Idle += d
	}
}

// measure returns every worker's time up to end, when the last order ended.
func (p *pool) measure(end time.Time) []measured.Worker {
	p.mu.Lock()
	defer p.mu.Unlock()
	for i := range p.times {
		p.tick(i, end)
	}
	return slices.Clone(p.times)
}

// take makes free worker i run a new order.
func (p *pool) take(i int) {
	p.tick(i, time.Now())
	p.busy[i] = true
	p.times[i].Orders++
}

// acquire returns the worker a new order runs on, waiting for one.
func (p *pool) acquire() int {
	p.mu.Lock()
	if len(p.waiting) == 0 {
		if i := p.pick(); i >= 0 {
			p.take(i)
			p.mu.Unlock()
			return i
		}
	}
	return p.await(&p.waiting)
}

// await queues the caller on q, unlocks the pool and returns the worker
// that release hands it.
func (p *pool) await(q *[]chan int) int {
	ch := make(chan int, 1)
	*q = append(*q, ch)
	p.mu.Unlock()
	return <-ch
}

// pick returns the worker for a new order, -1 when all are busy.
func (p *pool) pick() int {
	free := -1
	for i, b := range p.busy {
		if b {
			continue
		}
		if p.suspended[i] == 0 {
			return i
		}
		if free < 0 {
			free = i
		}
	}
	return free
}

// suspend frees worker i, whose order waits for a result.
func (p *pool) suspend(i int) {
	p.mu.Lock()
	p.tick(i, time.Now())
	p.suspended[i]++
	p.release(i)
	p.mu.Unlock()
}

// resumeOn returns the worker on which the order suspended on worker i
// resumes, when it has it.
func (p *pool) resumeOn(i int) int {
	p.mu.Lock()
	now := time.Now()
	p.tick(i, now)
	if !p.busy[i] {
		p.busy[i] = true
		p.suspended[i]--
		p.mu.Unlock()
		return i
	}
	if p.migrate {
		p.suspended[i]--
		if j := slices.Index(p.busy, false); j >= 0 {
			p.tick(j, now)
			p.busy[j] = true
			p.mu.Unlock()
			return j
		}
		return p.await(&p.resumeAny)
	}
	ch := make(chan struct{})
	p.resume[i] = append(p.resume[i], ch)
	p.mu.Unlock()
	<-ch
	return i
}

// finish frees worker i, whose order ended.
func (p *pool) finish(i int) {
	p.mu.Lock()
	p.tick(i, time.Now())
	p.release(i)
	p.mu.Unlock()
}

// release gives free worker i to the next order: one resuming on it
// first, else the oldest new order (all other workers are busy then). The
// caller has just ticked i's clock.
func (p *pool) release(i int) {
	if q := p.resume[i]; len(q) > 0 {
		p.resume[i] = q[1:]
		p.suspended[i]--
		close(q[0])
		return
	}
	if len(p.resumeAny) > 0 {
		ch := p.resumeAny[0]
		p.resumeAny = p.resumeAny[1:]
		ch <- i
		return
	}
	if len(p.waiting) > 0 {
		ch := p.waiting[0]
		p.waiting = p.waiting[1:]
		p.times[i].Orders++
		ch <- i
		return
	}
	p.busy[i] = false
}
