package requeststore

import (
	"math/rand/v2"
	"testing"

	"github.com/presage-dvm/presage/sim/ordertrace"
)

// TestStore files and releases lists of random lengths, long ones and
// ones whose numbers do not fit a slot included, and checks that every
// list held reads back as filed (no two runs overlap) and that released
// slots are reused.
func TestStore(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	var s Store
	type held struct {
		list List
		want []ordertrace.Request
	}
	var lists []held
	check := func(step int) {
		for _, h := range lists {
			for i, w := range h.want {
				if got := s.Get(h.list, int32(i)); got != w {
					t.Fatalf("step %d: request %d of a list of %d = %+v, want %+v", step, i, len(h.want), got, w)
				}
			}
		}
	}
	length := func() int {
		switch rng.IntN(20) {
		case 0:
			return 1<<maxRunBits + 1 + rng.IntN(100) // long
		case 1:
			return 0
		default:
			return 1 + rng.IntN(40)
		}
	}
	next := int64(0)
	for step := range 3000 {
		if len(lists) > 0 && rng.IntN(2) == 0 {
			k := rng.IntN(len(lists))
			s.Release(lists[k].list)
			lists[k] = lists[len(lists)-1]
			lists = lists[:len(lists)-1]
		} else {
			r := make([]ordertrace.Request, length())
			for i := range r {
				next++
				r[i] = ordertrace.Request{Order: next, Result: i, At: float64(next)}
			}
			if len(r) > 0 && rng.IntN(10) == 0 { // kept as it is, in long
				r[rng.IntN(len(r))].Order += 1 << 32
			}
			lists = append(lists, held{s.Add(r), r})
		}
		if step%100 == 0 {
			check(step)
		}
	}
	check(3000)
	top := s.top
	for range 1000 { // a steady state of short lists takes no new slot
		l := s.Add(make([]ordertrace.Request, 1+rng.IntN(40)))
		s.Release(l)
	}
	if s.top != top {
		t.Errorf("lists filed and released one at a time took %d new slots", s.top-top)
	}
}

func TestSizeClass(t *testing.T) {
	for _, c := range []struct {
		n    int32
		want int
	}{{1, 0}, {2, 1}, {3, 2}, {4, 2}, {5, 3}, {1024, 10}} {
		if got := sizeClass(c.n); got != c.want {
			t.Errorf("sizeClass(%d) = %d, want %d", c.n, got, c.want)
		}
	}
}
