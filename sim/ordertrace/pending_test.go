package ordertrace

import (
	"slices"
	"testing"

	"github.com/presage-dvm/presage/sim/internal/chunked"
)

// TestPendingSet remembers requests over several chunks, for many
// targets, takes some back, reuses their entries, and checks that every
// request comes back once, with its target, and that earliest finds the
// request from the earliest order.
func TestPendingSet(t *testing.T) {
	s := newPendingSet()
	const requests = 4<<chunked.FirstBits + 317 // over four chunks; the last one's target among those taken late
	target := func(i int) int64 { return int64(1000 + i%500) }
	from := func(i int) int64 { return int64(requests - i) } // the last added comes from the earliest order
	for i := range requests {
		s.add(target(i), pendingRequest{from: from(i)})
	}
	takeAll := func(tg int64) []int64 {
		var from []int64
		if err := s.take(tg, func(p pendingRequest) error {
			if want := target(requests - int(p.from)); tg < 2000 && want != tg {
				t.Fatalf("request from %d came back for target %d, want %d", p.from, tg, want)
			}
			from = append(from, p.from)
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		return from
	}
	seen := 0
	for tg := int64(1000); tg < 1250; tg++ {
		seen += len(takeAll(tg))
	}
	if got := takeAll(1000); got != nil {
		t.Fatalf("target 1000 taken twice: %v", got)
	}
	// The freed entries are reused before new ones.
	used := s.n
	for i := range 100 {
		s.add(2000, pendingRequest{from: int64(requests + i)})
	}
	if s.n != used {
		t.Errorf("adding after takes used %d new entries, want 0", s.n-used)
	}
	p, tg, ok := s.earliest()
	if !ok || p.from != 1 || tg != target(requests-1) {
		t.Errorf("earliest = from order %d for target %d (%v), want from order 1 for target %d", p.from, tg, ok, target(requests-1))
	}
	for tg := int64(1250); tg < 1500; tg++ {
		seen += len(takeAll(tg))
	}
	if seen != requests {
		t.Errorf("%d requests came back, want %d", seen, requests)
	}
	got := takeAll(2000)
	slices.Sort(got)
	if len(got) != 100 || got[0] != requests || got[99] != requests+99 {
		t.Errorf("target 2000 gave %d requests, want 100 (from orders %d..%d)", len(got), requests, requests+99)
	}
	if _, _, ok := s.earliest(); ok {
		t.Error("earliest found a request in an emptied set")
	}
}
