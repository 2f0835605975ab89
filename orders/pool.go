package orders

import (
	"slices"
	"sync"
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
}

func newPool(n int, migrate bool) *pool {
	return &pool{migrate: migrate, busy: make([]bool, n), suspended: make([]int, n), resume: make([][]chan struct{}, n)}
}

// acquire returns the worker a new order runs on, waiting for one.
func (p *pool) acquire() int {
	p.mu.Lock()
	if len(p.waiting) == 0 {
		if i := p.pick(); i >= 0 {
			p.busy[i] = true
			p.mu.Unlock()
			return i
		}
	}
	ch := make(chan int, 1)
	p.waiting = append(p.waiting, ch)
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
	p.suspended[i]++
	p.release(i)
	p.mu.Unlock()
}

// resumeOn returns the worker on which the order suspended on worker i
// resumes, when it has it.
func (p *pool) resumeOn(i int) int {
	p.mu.Lock()
	if !p.busy[i] {
		p.busy[i] = true
		p.suspended[i]--
		p.mu.Unlock()
		return i
	}
	if p.migrate {
		p.suspended[i]--
		if j := slices.Index(p.busy, false); j >= 0 {
			p.busy[j] = true
			p.mu.Unlock()
			return j
		}
		ch := make(chan int, 1)
		p.resumeAny = append(p.resumeAny, ch)
		p.mu.Unlock()
		return <-ch
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
	p.release(i)
	p.mu.Unlock()
}

// release gives free worker i to the next order: one resuming on it
// first, else the oldest new order (all other workers are busy then).
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
		ch <- i
		return
	}
	p.busy[i] = false
}
