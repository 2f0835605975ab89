package workspan

import (
	"cmp"
	"io"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/presage-dvm/presage/sim/ordertrace"
)

// TestAgainstFixedPoint compares the streaming schedule with a plain
// fixed-point evaluation of the same semantics on random traces, with
// moments on a coarse grid so that equal moments are frequent, and
// requests between arbitrary orders, so that some traces deadlock.
func TestAgainstFixedPoint(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	net := Network{Latency: 0.25, Bandwidth: 8}
	deadlocks := 0
	for range 400 {
		if compareWithFixedPoint(t, randomTrace(rng, 2+rng.IntN(30)), net) {
			deadlocks++
		}
	}
	t.Logf("%d of 400 deadlock", deadlocks)
	if deadlocks == 0 || deadlocks > 300 {
		t.Errorf("%d of 400 random traces deadlock: the test needs both kinds", deadlocks)
	}
}

type slice struct{ orders []*ordertrace.Order }

func (s *slice) Next() (*ordertrace.Order, error) {
	if len(s.orders) == 0 {
		return nil, io.EOF
	}
	o := s.orders[0]
	s.orders = s.orders[1:]
	return o, nil
}

// grid returns a random moment in [lo, hi] on a grid of halves.
func grid(rng *rand.Rand, lo, hi float64) float64 {
	steps := int((hi - lo) * 2)
	return lo + float64(rng.IntN(steps+1))/2
}

// randomTrace makes n orders with random parents, results and requests
// for earlier orders; parents request some of their children.
func randomTrace(rng *rand.Rand, n int) []*ordertrace.Order {
	orders := make([]*ordertrace.Order, n)
	for i := range orders {
		o := &ordertrace.Order{ID: int64(i + 1), Proc: "p", Duration: float64(rng.IntN(7)) / 2, ArgBytes: int64(rng.IntN(16))}
		if i > 0 {
			p := orders[rng.IntN(i)]
			o.Parent, o.MadeAt = p.ID, grid(rng, 0, p.Duration)
			if rng.IntN(2) == 0 {
				p.Requests = append(p.Requests, ordertrace.Request{Order: o.ID, At: grid(rng, o.MadeAt, p.Duration)})
			}
		}
		for range 1 + rng.IntN(2) {
			o.Results = append(o.Results, ordertrace.Result{At: grid(rng, 0, o.Duration), Bytes: int64(rng.IntN(16))})
		}
		slices.SortFunc(o.Results, func(a, b ordertrace.Result) int { return cmp.Compare(a.At, b.At) })
		for range rng.IntN(3) {
			if i == 0 {
				break
			}
			j := orders[rng.IntN(i)]
			q := ordertrace.Request{Order: j.ID, Result: rng.IntN(len(j.Results)), At: grid(rng, 0, o.Duration)}
			if !slices.ContainsFunc(o.Requests, func(r ordertrace.Request) bool { return r.Order == q.Order && r.Result == q.Result }) {
				o.Requests = append(o.Requests, q)
			}
		}
		orders[i] = o
	}
	for _, o := range orders {
		slices.SortStableFunc(o.Requests, func(a, b ordertrace.Request) int { return cmp.Compare(a.At, b.At) })
	}
	return orders
}

// fixedPoint evaluates the as-soon-as-possible schedule by sweeping over
// all orders until nothing changes, pricing every edge by cost. ok is
// false when some order never finishes.
func fixedPoint(orders []*ordertrace.Order, cost func(bytes int64) float64) (span float64, ok bool) {
	n := len(orders)
	start := make([]float64, n)
	avail := make([][]float64, n) // per result; NaN while unknown
	for i, o := range orders {
		start[i] = math.NaN()
		avail[i] = make([]float64, len(o.Results))
		for k := range avail[i] {
			avail[i][k] = math.NaN()
		}
	}
	start[0] = 0
	for changed := true; changed; {
		changed = false
		set := func(p *float64, v float64) {
			if math.IsNaN(*p) {
				*p, changed = v, true
			}
		}
		for i, o := range orders {
			if math.IsNaN(start[i]) {
				continue
			}
			// waits[k] is the offset request k imposes; resolved counts the
			// requests whose results are known, in own-time order.
			resolved := 0
			var waits []float64
			for _, q := range o.Requests {
				a := avail[q.Order-1][q.Result]
				if math.IsNaN(a) {
					break
				}
				waits = append(waits, a-q.At)
				resolved++
			}
			// offset returns the offset at moment t counting requests
			// before t (or at t too, when inclusive); ok false when one of
			// them is unresolved.
			offset := func(t float64, inclusive bool) (float64, bool) {
				off := start[i]
				for k, q := range o.Requests {
					if q.At > t || q.At == t && !inclusive {
						break
					}
					if k >= resolved {
						return 0, false
					}
					off = max(off, waits[k])
				}
				return off, true
			}
			for k, r := range o.Results {
				if off, ok := offset(r.At, true); ok {
					set(&avail[i][k], r.At+off+cost(r.Bytes))
				}
			}
			for c := i + 1; c < n; c++ {
				if kid := orders[c]; kid.Parent == o.ID {
					if off, ok := offset(kid.MadeAt, false); ok {
						set(&start[c], kid.MadeAt+off+cost(kid.ArgBytes))
					}
				}
			}
		}
	}
	for i, o := range orders {
		if math.IsNaN(start[i]) {
			return 0, false
		}
		off := start[i]
		for _, q := range o.Requests {
			a := avail[q.Order-1][q.Result]
			if math.IsNaN(a) {
				return 0, false
			}
			off = max(off, a-q.At)
		}
		span = max(span, o.Duration+off)
	}
	return span, true
}
