package ordersim

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/presage-dvm/presage/sim/chunked"
)

func TestArenaReusesOnlyReleased(t *testing.T) {
	var a arena[link]
	held := map[int32]bool{}
	rng := rand.New(rand.NewPCG(1, 2))
	for step := range 20000 {
		if len(held) > 0 && rng.IntN(3) == 0 {
			for i := range held {
				a.release(i)
				delete(held, i)
				break
			}
			continue
		}
		i, l := a.alloc()
		switch {
		case i == 0:
			t.Fatalf("step %d: number 0, which means none, handed out", step)
		case held[i]:
			t.Fatalf("step %d: number %d handed out while held", step, i)
		case *l != link{}:
			t.Fatalf("step %d: number %d handed out dirty: %+v", step, i, *l)
		}
		held[i] = true
		l.order = int64(step + 1) // dirty it, as a link would
	}
	if a.held() != len(held) {
		t.Errorf("arena holds %d, want %d", a.held(), len(held))
	}
}

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
	for k := range e.lives.free.n {
		i := *e.lives.free.nums.At(k)
		if l := e.lives.At(i); l.state != gone {
			return fmt.Errorf("free entry %d holds order %d in state %d", i, l.id, l.state)
		}
	}
	if named != e.lives.held() {
		return fmt.Errorf("the table names %d orders, the arena holds %d", named, e.lives.held())
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
			if n := e.lives.held(); n != 0 {
				t.Errorf("trace %d, %s: %d orders held after the run", ti, s, n)
			}
			runs := 0
			for _, st := range e.result().CriticalPath {
				if st.Kind == Exec {
					runs++
				}
			}
			if n := e.links.held(); n != runs {
				t.Errorf("trace %d, %s: %d links held after the run, want the %d runs of the critical path", ti, s, n, runs)
			}
		}
	}
}

// TestStackIsLastInFirstOut pushes and pops across chunks: the arena
// hands out the number given back last, as the simulation's numbering
// (and so its ties) always had it.
func TestStackIsLastInFirstOut(t *testing.T) {
	var s stack
	const n = 3<<chunked.FirstBits + 5 // over three chunks
	// The second round reuses the chunks.
	for round := range 2 {
		for i := int32(1); i <= n; i++ {
			s.push(i)
		}
		if s.len() != n {
			t.Fatalf("round %d: len %d after %d pushes", round, s.len(), n)
		}
		for want := int32(n); want >= 1; want-- {
			if got := s.pop(); got != want {
				t.Fatalf("round %d: pop %d, want %d", round, got, want)
			}
		}
		if got := s.pop(); got != 0 || s.len() != 0 {
			t.Fatalf("round %d: empty stack pops %d, len %d", round, got, s.len())
		}
	}
	if len(s.nums) != 3 {
		t.Errorf("%d chunks for %d numbers at most, want 3: chunks are not reused", len(s.nums), n)
	}
}
