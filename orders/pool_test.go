package orders

import (
	"testing"

	"github.com/presage-dvm/presage/orders/ordersched"
)

// workerOf returns the worker t's order was given, -1 while it waits.
func workerOf(p *pool, t *ticket) int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return t.worker
}

// expect checks where each ticket stands: its worker, or -1 (waiting).
func expect(t *testing.T, p *pool, step string, tickets []*ticket, want ...int) {
	t.Helper()
	for i, tk := range tickets {
		if got := workerOf(p, tk); got != want[i] {
			t.Errorf("%s: order %d on worker %d, want %d", step, i, got, want[i])
		}
	}
}

// TestPoolFIFO: new orders take the lowest worker without a suspended
// order, then the lowest free one, then wait their turn in one queue; a
// resuming order goes ahead of waiting new ones.
func TestPoolFIFO(t *testing.T) {
	p := newPool(2, ordersched.FIFO, false, 0)
	main, a := p.place(-1), p.place(0)
	expect(t, p, "two orders", []*ticket{main, a}, 0, 1)
	p.suspend(0) // main waits: worker 0 is free but not vacant
	b := p.place(0)
	expect(t, p, "third order", []*ticket{b}, 0)
	back := p.resumeFrom(0) // main's result arrives: worker 0 is busy
	c := p.place(0)
	expect(t, p, "all busy", []*ticket{back, c}, -1, -1)
	p.finish(0) // b ends: main resumes on 0 first
	expect(t, p, "b ended", []*ticket{back, c}, 0, -1)
	p.finish(1) // a ends: the waiting new order gets 1
	expect(t, p, "a ended", []*ticket{c}, 1)
}

// TestPoolMigrate: with migrate, a resuming order whose worker is busy
// takes another free one.
func TestPoolMigrate(t *testing.T) {
	p := newPool(2, ordersched.FIFO, true, 0)
	p.place(-1)
	p.place(0)
	p.suspend(0)
	b := p.place(0)
	expect(t, p, "third order", []*ticket{b}, 0)
	p.finish(1)
	expect(t, p, "resumed", []*ticket{p.resumeFrom(0)}, 1)
}

// TestPoolLeastLoaded: an order goes, when made, to the worker with the
// fewest unfinished orders, lowest first, and waits there.
func TestPoolLeastLoaded(t *testing.T) {
	p := newPool(2, ordersched.LeastLoaded, false, 0)
	main := p.place(-1)
	a := p.place(0) // loads 1, 0
	b := p.place(0) // loads 1, 1: worker 0, busy
	expect(t, p, "placed", []*ticket{main, a, b}, 0, 1, -1)
	p.finish(1) // worker 1 idles: b stays where it was placed
	expect(t, p, "a ended", []*ticket{b}, -1)
	p.suspend(0)
	expect(t, p, "main waits", []*ticket{b}, 0)
}

// TestPoolLocality: children stay on their parent's worker until it holds
// more than the slack above the least loaded.
func TestPoolLocality(t *testing.T) {
	p := newPool(2, ordersched.Locality, false, 0)
	p.place(-1)
	a := p.place(0) // loads 1, 0: 1 ≤ 0+1, stays
	b := p.place(0) // loads 2, 0: goes to 1
	expect(t, p, "placed", []*ticket{a, b}, -1, 1)
	p.suspend(0)
	expect(t, p, "main waits", []*ticket{a}, 0)
}

// TestPoolWorkStealing: children go on their parent's deque; the owner
// runs the newest, an idle worker steals the oldest.
func TestPoolWorkStealing(t *testing.T) {
	p := newPool(2, ordersched.WorkStealing, false, 0)
	p.place(-1)
	a := p.place(0) // worker 1 is idle: steals it at once
	b, c := p.place(0), p.place(0)
	expect(t, p, "placed", []*ticket{a, b, c}, 1, -1, -1)
	p.suspend(0) // the owner takes its newest
	expect(t, p, "main waits", []*ticket{b, c}, -1, 0)
	p.finish(1) // the thief comes back for the oldest
	expect(t, p, "a ended", []*ticket{b}, 1)
}

// TestPoolMeasure: each worker's busy, waiting and idle time add up to
// the run, and orders are counted where they start.
func TestPoolMeasure(t *testing.T) {
	p := newPool(2, ordersched.FIFO, false, 0)
	p.place(-1)
	p.place(0)
	p.suspend(0)
	p.wait(p.resumeFrom(0))
	p.finish(1)
	p.finish(0)
	ws := p.measure(p.start.Add(1e9))
	for i, w := range ws {
		if sum := w.Busy + w.Waiting + w.Idle; sum < 0.999999 || sum > 1.000001 {
			t.Errorf("worker %d: busy+waiting+idle = %v s, want 1 s", i, sum)
		}
		if w.Orders != 1 {
			t.Errorf("worker %d started %d orders, want 1", i, w.Orders)
		}
	}
}

// TestPoolLosesWorkers: a lost worker takes nothing more, an order that
// waited to resume on it is given up (-1: it runs again elsewhere), and
// with no worker left every order is given up.
func TestPoolLosesWorkers(t *testing.T) {
	p := newPool(3, ordersched.FIFO, false, 0)
	a, b, c := p.place(-1), p.place(-1), p.place(-1)
	expect(t, p, "three orders", []*ticket{a, b, c}, 0, 1, 2)
	p.suspend(1)
	d := p.place(-1) // worker 1 is free, though not vacant
	expect(t, p, "d", []*ticket{d}, 1)
	back := p.resumeFrom(1) // b's result arrives: worker 1 is busy
	e := p.place(-1)
	expect(t, p, "all busy", []*ticket{back, e}, -1, -1)
	p.lose([]int{1})
	if w := p.wait(back); w != -1 {
		t.Errorf("b resumed on worker %d of a lost process", w)
	}
	p.finish(0)
	expect(t, p, "worker 0 free", []*ticket{e}, 0)
	p.finish(0)
	f := p.place(-1)
	expect(t, p, "worker 1 lost", []*ticket{f}, 0)
	p.lose([]int{0, 2})
	if w := p.wait(p.place(-1)); w != -1 {
		t.Errorf("with every worker lost, an order got worker %d", w)
	}
}
