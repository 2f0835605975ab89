package ordersim

import (
	"fmt"
	"testing"
)

// checkArena checks that the table names exactly the orders held in the
// arena, each under its id, and that no free entry is named.
func (e *engine) checkArena() error {
	named := 0
	var err error
	e.entries.Each(func(_ int64, i int32) {
		named++
		if l := e.lives.At(i); l.state == gone || l.idx != i || e.entries.Get(int64(l.id)) != i {
			err = fmt.Errorf("table entry %d names order %d, state %d, number %d", i, l.id, l.state, l.idx)
		}
	})
	if err != nil {
		return err
	}
	for i := range e.lives.Given() {
		if l := e.lives.At(i); l.state != gone {
			return fmt.Errorf("free entry %d holds order %d in state %d", i, l.id, l.state)
		}
	}
	if named != e.lives.Held() {
		return fmt.Errorf("the table names %d orders, the arena holds %d", named, e.lives.Held())
	}
	return nil
}

// TestArenaFollowsLiveOrders checks the arenas while random traces are
// simulated, and that a simulation ends holding no order and no link but
// the critical path.
func TestArenaFollowsLiveOrders(t *testing.T) {
	for ti, tr := range traces(t) {
		p, err := Prepare(tr.open)
		if err != nil {
			t.Fatal(err)
		}
		for _, opt := range []Options{{Scheduler: FIFO, Pin: true}, {Scheduler: LeastLoaded, Pin: true}, {Scheduler: WorkStealing}, {Scheduler: Locality, Pin: true}} {
			s := opt.Scheduler
			src, _ := tr.open()
			e := newEngine(p, src, Cluster{Nodes: 3, Latency: 0.5, Bandwidth: 100}, opt)
			e.opt.OnOrder = func(OrderResult) {
				if err := e.checkArena(); err != nil {
					t.Fatalf("trace %d, %s: %v", ti, s, err)
				}
			}
			if err := e.run(); err != nil {
				continue // deadlocks are other tests' business
			}
			if n := e.lives.Held(); n != 0 {
				t.Errorf("trace %d, %s: %d orders held after the run", ti, s, n)
			}
			runs := 0
			for _, st := range e.result().CriticalPath {
				if st.Kind == Exec {
					runs++
				}
			}
			if n := e.links.Held(); n != runs {
				t.Errorf("trace %d, %s: %d links held after the run, want the %d runs of the critical path", ti, s, n, runs)
			}
		}
	}
}
