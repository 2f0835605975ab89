package orders

import (
	"testing"
	"time"
)

// until polls cond (under the pool's lock) until it holds: the goroutine
// under test has reached its queue.
func until(t *testing.T, p *pool, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		p.mu.Lock()
		ok := cond()
		p.mu.Unlock()
		if ok {
			return
		}
		if time.Now().After(deadline) {
			t.Fatal("the pool never reached the expected state")
		}
		time.Sleep(time.Millisecond)
	}
}

// TestPoolOrder plays the FIFO rule on two workers: new orders take the
// lowest worker without a suspended order, then the lowest free one,
// then wait their turn; a resuming order goes ahead of waiting new ones.
func TestPoolOrder(t *testing.T) {
	p := newPool(2, false)
	if a, b := p.acquire(), p.acquire(); a != 0 || b != 1 {
		t.Fatalf("first workers %d and %d, want 0 and 1", a, b)
	}
	p.suspend(0) // worker 0's order waits: 0 is free but not vacant
	if c := p.acquire(); c != 0 {
		t.Fatalf("third order on %d, want 0", c)
	}
	resumed := make(chan int)
	go func() { resumed <- p.resumeOn(0) }() // its result arrives: 0 is busy
	until(t, p, func() bool { return len(p.resume[0]) == 1 })
	newcomer := make(chan int)
	go func() { newcomer <- p.acquire() }()
	until(t, p, func() bool { return len(p.waiting) == 1 })
	p.finish(0) // the third order ends: the resuming one gets 0 first
	if w := <-resumed; w != 0 {
		t.Errorf("resumed on %d, want 0", w)
	}
	p.finish(1)
	if w := <-newcomer; w != 1 {
		t.Errorf("the waiting new order got %d, want 1", w)
	}
}

// TestPoolMigrate: with migrate, a resuming order whose worker is busy
// takes another free one.
func TestPoolMigrate(t *testing.T) {
	p := newPool(2, true)
	p.acquire()
	p.acquire()
	p.suspend(0)
	if c := p.acquire(); c != 0 {
		t.Fatalf("third order on %d, want 0, the only free worker", c)
	}
	p.finish(1)
	if w := p.resumeOn(0); w != 1 {
		t.Errorf("resumed on %d, want the free worker 1", w)
	}
}
