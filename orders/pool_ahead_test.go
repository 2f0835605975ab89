package orders

import (
	"testing"

	"github.com/presage-dvm/presage/orders/ordersched"
)

// TestPoolAhead: with orders started ahead (pool.ahead), a new order
// that finds every worker running goes to the worker holding the fewest
// ahead, the lowest first, up to ahead each; the worker's process starts
// it as the worker frees (begin), and a worker holding orders ahead takes
// no other, running or not. A suspension says when orders ahead wait for
// the freed core (its release), and none goes ahead to a worker an order
// waits to resume on.
func TestPoolAhead(t *testing.T) {
	p := newPool(2, ordersched.FIFO, false, 0)
	p.ahead = 1
	main, a := p.place(-1), p.place(0)
	b, c, d := p.place(0), p.place(0), p.place(0)
	expect(t, p, "two running, two ahead, one queued", []*ticket{main, a, b, c, d}, 0, 1, 0, 1, -1)
	if !b.ahead || !c.ahead || d.ahead {
		t.Errorf("ahead: b %v, c %v, d %v; want b and c", b.ahead, c.ahead, d.ahead)
	}
	p.finish(1) // a ends: worker 1 holds c, and takes nothing else until its process starts c
	expect(t, p, "a ended", []*ticket{d}, -1)
	p.begin(1, c) // and d goes ahead there
	expect(t, p, "c began", []*ticket{d}, 1)
	if !p.suspend(0) { // main waits: b is ahead on worker 0, whose process is told
		t.Error("main suspended with b ahead on its worker: want a release")
	}
	p.begin(0, b)
	back := p.resumeFrom(0) // main's result came: worker 0 runs b
	e := p.place(0)         // worker 1 holds d ahead already, and none goes ahead of main on worker 0
	expect(t, p, "main to resume on 0", []*ticket{d, back, e}, 1, -1, -1)
	p.finish(0) // b ends: main resumes on 0, and e goes ahead there
	expect(t, p, "b ended", []*ticket{back, e}, 0, 0)
	if !p.suspend(1) {
		t.Error("c suspended with d ahead on worker 1: want a release")
	}
}

// TestPoolTakesBack: a worker left free while another holds orders
// ahead asks the newest back (reclaim); taken back (the process had not
// started it), it runs on the free worker; settled (it had), it stays,
// and is not asked again.
func TestPoolTakesBack(t *testing.T) {
	p := newPool(3, ordersched.FIFO, false, 0)
	p.ahead = 2
	p.place(-1)
	p.place(0)
	p.place(0)
	x, y := p.place(0), p.place(0) // ahead on workers 0 and 1
	p.finish(2)                    // worker 2 frees: it asks back the newest of the worker holding most
	back := p.takeReclaims()
	if len(back) != 1 || back[0] != x {
		t.Fatalf("asked back %v, want x (the newest on worker 0, which holds as many as worker 1, and is lower)", back)
	}
	p.takeBack(0, x)
	expect(t, p, "x taken back", []*ticket{x, y}, 2, 1)
	if x.ahead {
		t.Error("x runs on worker 2 as an order of its own: want it no more ahead")
	}
	p.finish(2) // x ends: worker 2 asks y back, whose process started it already
	if back = p.takeReclaims(); len(back) != 1 || back[0] != y {
		t.Fatalf("asked back %v, want y", back)
	}
	p.begin(1, y) // its process's word comes first
	if p.settle(y) {
		t.Error("y began: want it no more ahead")
	}
	if back = p.takeReclaims(); len(back) != 0 {
		t.Errorf("asked back %v with nothing ahead, want none", back)
	}
}

// TestPoolAsksBackForAResume: an order to resume on a worker that holds
// orders given ahead has them asked back (askBackFor), newest first, so
// that it resumes once the order running there ends; taken back, they
// go to the head of FIFO's queue, and the worker takes no new one ahead
// meanwhile.
func TestPoolAsksBackForAResume(t *testing.T) {
	p := newPool(2, ordersched.FIFO, false, 0)
	p.ahead = 2
	main := p.place(-1)
	p.place(0)                     // a, on worker 1
	x, y := p.place(0), p.place(0) // ahead: x on 0, y on 1
	p.suspend(1)                   // a waits; y begins on 1
	p.begin(1, y)
	back := p.resumeFrom(1) // a's result came: worker 1 runs y, and holds nothing ahead
	if got := p.takeReclaims(); len(got) != 0 {
		t.Errorf("asked back %d orders for a resume on a worker holding none ahead", len(got))
	}
	expect(t, p, "a to resume", []*ticket{main, back}, 0, -1)
	p.suspend(0) // main waits: x begins on 0
	p.begin(0, x)
	z := p.place(0) // made meanwhile: ahead on 0 (1 has a resume waiting)
	back0 := p.resumeFrom(0)
	if got := p.takeReclaims(); len(got) != 1 || got[0] != z {
		t.Fatalf("asked back %v for main's resume on 0, want z", got)
	}
	p.takeBack(0, z)
	expect(t, p, "z back", []*ticket{z}, -1)
	p.finish(0) // x ends: main resumes on 0 at once, and z goes ahead there again
	expect(t, p, "x ended", []*ticket{back0, z}, 0, 0)
	p.finish(1) // y ends: a resumes on 1
	expect(t, p, "y ended", []*ticket{back}, 1)
}

// TestPoolRetractFreesTheWorker: a worker whose only order ahead is
// retracted (its start went through a lost node), with its own order
// waiting for a result, takes the next queued order at once: nothing
// else may come to wake it, since the retracted order waits for its
// maker to make it again.
func TestPoolRetractFreesTheWorker(t *testing.T) {
	p := newPool(2, ordersched.FIFO, false, 0)
	p.ahead = 1
	p.place(-1)
	p.place(0)
	x, y := p.place(0), p.place(0) // ahead: x on 0, y on 1
	z := p.place(0)                // queued
	p.suspend(0)                   // main waits: worker 0 is free, but holds x
	expect(t, p, "x held on 0", []*ticket{x, y, z}, 0, 1, -1)
	if !p.retract(0, x) {
		t.Fatal("x was ahead on worker 0: want it retracted")
	}
	expect(t, p, "x retracted", []*ticket{z}, 0)
	if z.ahead {
		t.Error("z came to a free worker: want it given as an order of its own, not ahead")
	}
}

// TestPoolAheadGrows: a worker whose order ends before the order given
// ahead to it has reached its process (its end names none) takes one
// more ahead from then on, up to pool.aheadMax; one whose end names the
// next does not, nor does one that was given none.
func TestPoolAheadGrows(t *testing.T) {
	p := newPool(1, ordersched.FIFO, false, 0)
	p.ahead, p.aheadMax = 1, 2
	main := p.place(-1)
	a, b, c := p.place(0), p.place(0), p.place(0)
	expect(t, p, "one ahead", []*ticket{main, a, b, c}, 0, 0, -1, -1)
	p.starved(0) // main ends, its end naming none: a had not arrived
	p.finish(0)
	expect(t, p, "main ended before a arrived", []*ticket{b}, 0)
	p.begin(0, a)
	expect(t, p, "a began", []*ticket{b, c}, 0, 0)
	p.starved(0) // a ends before b arrived: the worker holds 2 already, its most
	p.finish(0)
	if w := p.workers[0]; w.grown != 1 {
		t.Errorf("grew %d beyond pool.ahead, want 1 (aheadMax %d)", w.grown, p.aheadMax)
	}
	q := newPool(1, ordersched.FIFO, false, 0)
	q.ahead, q.aheadMax = 1, 2
	q.place(-1)
	q.starved(0) // main ends with nothing given ahead: nothing to grow for
	if q.workers[0].grown != 0 {
		t.Error("a worker given nothing ahead grew")
	}
}
