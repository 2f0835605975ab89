package orders

import (
	"bytes"
	"context"
	"fmt"
	goruntime "runtime"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/presage-dvm/presage/orders/measured"
	"github.com/presage-dvm/presage/orders/ordersched"
)

// trail records what orders do, in the order they do it.
type trail struct {
	mu     sync.Mutex
	events []string
}

func (tr *trail) add(format string, args ...any) {
	tr.mu.Lock()
	tr.events = append(tr.events, fmt.Sprintf(format, args...))
	tr.mu.Unlock()
}

func (tr *trail) get() []string {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	return slices.Clone(tr.events)
}

// TestSchedOneWorkerOrder: on one worker, new orders run oldest first
// (newest first under WorkStealing), and an order whose result arrives
// resumes ahead of the new orders queued on its worker.
func TestSchedOneWorkerOrder(t *testing.T) { oneWorkerSteps(t, false) }

// TestSchedWaitBeforeHandOver: the same, with main held in its Get,
// once it has handed its worker over, until the order it waits for has
// ended: the order must find main waiting however late main goes on, so
// that main resumes ahead of the new orders (under WorkStealing, ahead
// of 3). Were main to register its wait only after, that order would
// end unseen and the worker would run 3 before main every time.
func TestSchedWaitBeforeHandOver(t *testing.T) { oneWorkerSteps(t, true) }

// oneWorkerSteps runs main, which makes four orders and waits for the
// last, on one worker by every rule, and checks the order of their runs;
// hold holds main after its worker's hand-over until the awaited order
// has ended.
func oneWorkerSteps(t *testing.T, hold bool) {
	var tr trail
	tag := fmt.Sprint(hold)
	step := Proc("sched.step-"+tag, func(c *Ctx, i int) (int, error) { tr.add("%d", i); return i, nil })
	main := Proc("sched.steps-"+tag, func(c *Ctx, n int) (int, error) {
		if hold {
			// Read by this order's own Gets only: no other order gets.
			c.rt.(*runMode).onHandOver = func(o *order) {
				for o.state.Load() != orderEnded {
					goruntime.Gosched()
				}
			}
		}
		hs := make([]*Handle[int], n)
		for i := range hs {
			hs[i] = Make(c, step, i+1)
		}
		if _, err := hs[n-1].Get(c); err != nil { // suspends: the queue runs
			return 0, err
		}
		tr.add("main")
		for _, h := range hs {
			if _, err := h.Get(c); err != nil {
				return 0, err
			}
		}
		return 0, nil
	})
	for _, tc := range []struct {
		rule ordersched.Name
		want []string
	}{
		// FIFO: 1 to 4 run before 4 ends; main resumes then, and gets
		// the others, ended.
		{ordersched.FIFO, []string{"1", "2", "3", "4", "main"}},
		{ordersched.LeastLoaded, []string{"1", "2", "3", "4", "main"}},
		{ordersched.Locality, []string{"1", "2", "3", "4", "main"}},
		// WorkStealing: the newest first, 4; main resumes at once,
		// ahead of 3, 2 and 1, which run when it waits for 1.
		{ordersched.WorkStealing, []string{"4", "main", "3", "2", "1"}},
	} {
		tr = trail{}
		if _, _, err := Main(Config{Workers: 1, Scheduler: tc.rule}, main, 4); err != nil {
			t.Fatal(err)
		}
		if got := tr.get(); !slices.Equal(got, tc.want) {
			t.Errorf("%s: ran %v, want %v", tc.rule, got, tc.want)
		}
	}
}

// TestSchedPlaces: LeastLoaded places each order when made on the
// worker with the fewest unfinished orders, Locality on its maker's
// unless that one holds more than one above the least loaded, and the
// order runs there.
func TestSchedPlaces(t *testing.T) {
	for _, tc := range []struct {
		rule ordersched.Name
		want []int // the worker of each of main's three children
	}{
		// Loads (main on 0): 1,0 → 1; 1,1 → 0; 2,1 → 1.
		{ordersched.LeastLoaded, []int{1, 0, 1}},
		// Loads: 1,0: 1 ≤ 0+1 → 0; 2,0 → 1; 2,1: 2 ≤ 1+1 → 0.
		{ordersched.Locality, []int{0, 1, 0}},
	} {
		gate := make(chan struct{})
		var mu sync.Mutex
		where := map[int]int{}
		kid := Proc("sched.kid-"+string(tc.rule), func(c *Ctx, i int) (int, error) {
			mu.Lock()
			where[i] = c.ord.slot
			mu.Unlock()
			<-gate
			return i, nil
		})
		main := Proc("sched.kids-"+string(tc.rule), func(c *Ctx, _ int) (int, error) {
			hs := []*Handle[int]{Make(c, kid, 0), Make(c, kid, 1), Make(c, kid, 2)}
			close(gate)
			for _, h := range hs {
				if _, err := h.Get(c); err != nil {
					return 0, err
				}
			}
			return 0, nil
		})
		if _, _, err := Main(Config{Workers: 2, Scheduler: tc.rule}, main, 0); err != nil {
			t.Fatal(err)
		}
		for i, w := range tc.want {
			if where[i] != w {
				t.Errorf("%s: child %d ran on worker %d, want %d (all: %v)", tc.rule, i, where[i], w, where)
			}
		}
	}
}

// TestSchedMigrates: an order whose result arrives while its worker is
// busy resumes on a free worker, or, pinned, waits for its own.
func TestSchedMigrates(t *testing.T) {
	for _, pin := range []bool{false, true} {
		startedA, startedB := make(chan struct{}), make(chan struct{})
		gateA, gateB := make(chan struct{}), make(chan struct{})
		resumed := make(chan int, 1)
		tag := fmt.Sprint(pin)
		a := Proc("sched.a-"+tag, func(c *Ctx, _ int) (int, error) { close(startedA); <-gateA; return 1, nil })
		b := Proc("sched.b-"+tag, func(c *Ctx, _ int) (int, error) { close(startedB); <-gateB; return 2, nil })
		main := Proc("sched.ab-"+tag, func(c *Ctx, _ int) (int, error) {
			ha := Make(c, a, 0) // worker 1 takes it
			<-startedA
			hb := Make(c, b, 0) // queued on worker 0, which runs it when main waits
			x, err := ha.Get(c)
			resumed <- c.ord.slot
			if err != nil {
				return 0, err
			}
			y, err := hb.Get(c)
			return x + y, err
		})
		done := make(chan error, 1)
		go func() {
			_, _, err := Main(Config{Workers: 2, Pin: pin}, main, 0)
			done <- err
		}()
		<-startedB // main waits for a, b holds worker 0
		close(gateA)
		if !pin {
			if w := <-resumed; w != 1 {
				t.Errorf("migrating: main resumed on worker %d while b held 0, want 1", w)
			}
			close(gateB)
		} else {
			select {
			case w := <-resumed:
				t.Errorf("pinned: main resumed on worker %d while b held its worker", w)
			case <-time.After(50 * time.Millisecond):
			}
			close(gateB)
			if w := <-resumed; w != 0 {
				t.Errorf("pinned: main resumed on worker %d, want 0", w)
			}
		}
		if err := <-done; err != nil {
			t.Fatal(err)
		}
	}
}

// TestSchedEveryRule runs a tree of orders that wait for each other on
// 1 to 4 workers by every rule, pinned and not: the result, the orders
// counted, and a measurement whose times add up (measured.Read checks
// them) and whose orders started add up to those made; and no goroutine
// is left.
func TestSchedEveryRule(t *testing.T) {
	before := goruntime.NumGoroutine()
	for _, rule := range ordersched.All {
		for _, pin := range []bool{false, true} {
			for workers := 1; workers <= 4; workers++ {
				var out bytes.Buffer
				cfg := Config{Workers: workers, Scheduler: rule, Pin: pin, Seed: 7, Output: &out}
				got, rep, err := Main(cfg, sum, numbers(1000))
				name := fmt.Sprintf("%s, pin %v, %d workers", rule, pin, workers)
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				// 1000 numbers split down to 4 or fewer: 256 leaves, 511 orders.
				if got != 500500 || rep.Orders != 511 {
					t.Errorf("%s: sum %v of %d orders, want 500500 of 511", name, got, rep.Orders)
				}
				run, err := measured.Read(&out, "run.jsonl")
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				var started int64
				for _, w := range run.Workers {
					started += w.Orders
				}
				if started != 511 || len(run.Schedule) != 511 {
					t.Errorf("%s: %d orders started on the workers, %d scheduled, want 511", name, started, len(run.Schedule))
				}
			}
		}
	}
	noLeak(t, before)
}

// TestSchedGoexit: an order that calls runtime.Goexit ends as if it
// returned its zero value, and its worker goes on running the others:
// the goroutine it ran on was that worker's.
func TestSchedGoexit(t *testing.T) {
	quit := Proc("sched.quit", func(c *Ctx, _ int) (int, error) { goruntime.Goexit(); return 1, nil })
	five := Proc("sched.five", func(c *Ctx, _ int) (int, error) { return 5, nil })
	main := Proc("sched.quitters", func(c *Ctx, n int) (int, error) {
		var hs []*Handle[int]
		for range n {
			hs = append(hs, Make(c, quit, 0), Make(c, five, 0))
		}
		total := 0
		for _, h := range hs {
			x, err := h.Get(c)
			if err != nil {
				return 0, err
			}
			total += x
		}
		return total, nil
	})
	for _, workers := range []int{1, 2} {
		got, rep, err := Main(Config{Workers: workers}, main, 10)
		if err != nil || got != 50 || rep.Orders != 21 {
			t.Errorf("%d workers: %v, %v of %d orders; want 50 of 21", workers, got, err, rep.Orders)
		}
	}
}

// TestRunAllocsPerOrder: making an order of one argument in run mode,
// running it and getting its result allocate two values: the order
// (with its task and Ctx) and the handle with its call. Neither the
// call, nor the sizes of an int argument and a uint64 result (boxed
// into an interface), nor the order's first waiter allocate.
func TestRunAllocsPerOrder(t *testing.T) {
	const n, k = 4096, 16 // main waits for every order: each has a waiter
	run := func() {
		// 1000 steps: an argument outside the small values Go boxes
		// without allocating.
		if _, _, err := Run(context.Background(), Config{Workers: 1}, Call3(batch, n, k, 1000)); err != nil {
			t.Fatal(err)
		}
	}
	run() // the queues' arrays and the loops' goroutines grow once
	if per := testing.AllocsPerRun(3, run) / n; per > 2.2 {
		t.Errorf("%.2f allocations per order, want 2 (and the run's own, a few per hundred orders)", per)
	}
}

// TestQueue: tasks come out oldest first from the front and newest first
// from the back, across the moves that reclaim the taken front, and the
// size follows.
func TestQueue(t *testing.T) {
	var q queue
	tasks := make([]task, 300)
	for i := range 200 {
		q.push(&tasks[i])
	}
	for i := range 150 { // moves the rest down on the way
		if got := q.front(); got != &tasks[i] {
			t.Fatalf("front %d: task %v", i, got)
		}
	}
	for i := 200; i < 300; i++ {
		q.push(&tasks[i])
	}
	if n := q.size.Load(); n != 150 {
		t.Fatalf("size %d, want 150", n)
	}
	for i := 299; i >= 250; i-- {
		if got := q.back(); got != &tasks[i] {
			t.Fatalf("back: task %v, want %d", got, i)
		}
	}
	for i := 150; i < 250; i++ {
		if got := q.front(); got != &tasks[i] {
			t.Fatalf("front %d: task %v", i, got)
		}
	}
	if q.front() != nil || q.back() != nil || q.size.Load() != 0 {
		t.Errorf("an empty queue gave a task, or has size %d", q.size.Load())
	}
}

// TestSchedStealsABatch: a FIFO worker with no order of its own takes
// the oldest new order of the lowest-numbered worker that has any and
// moves the next ones, up to a batch and never more than half, to its
// own queue in their order: 40 queued give 1 + 15 moved and 24 left; 3
// give one alone.
func TestSchedStealsABatch(t *testing.T) {
	for _, tc := range []struct{ queued, moved int }{{40, stealBatch - 1}, {3, 0}, {1, 0}} {
		s := &sched{rule: ordersched.FIFO, workers: make([]slot, 3)}
		tasks := make([]task, tc.queued)
		for i := range tasks {
			s.workers[1].local.push(&tasks[i])
		}
		if got := s.stealOldest(2); got != &tasks[0] {
			t.Fatalf("%d queued: took %p, want the oldest %p", tc.queued, got, &tasks[0])
		}
		own := &s.workers[2].local
		if n := int(own.size.Load()); n != tc.moved {
			t.Fatalf("%d queued: %d moved to the thief's queue, want %d", tc.queued, n, tc.moved)
		}
		for i := 1; i <= tc.moved; i++ {
			if got := own.front(); got != &tasks[i] || got.home != 2 {
				t.Fatalf("%d queued: the thief's next is %p (home %d), want %p (home 2)", tc.queued, got, got.home, &tasks[i])
			}
		}
		if left := int(s.workers[1].local.size.Load()); left != tc.queued-1-tc.moved {
			t.Errorf("%d queued: %d left to the victim, want %d", tc.queued, left, tc.queued-1-tc.moved)
		}
		if next := s.workers[1].local.front(); tc.queued > 1+tc.moved && next != &tasks[1+tc.moved] {
			t.Errorf("%d queued: the victim's next is %p, want %p", tc.queued, next, &tasks[1+tc.moved])
		}
	}
}
