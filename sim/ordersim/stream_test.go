package ordersim

import (
	"io"

	"github.com/presage-dvm/presage/orders/ordertrace"
)

// dacSource streams a divide-and-conquer trace of the given depth,
// numbered level by level (order i makes 2i and 2i+1), the order in which
// an as-soon-as-possible run makes them: an inner order splits (1 s),
// makes its halves, waits for both and combines (1 s); a leaf works 4 s.
// It keeps nothing but a counter.
type dacSource struct {
	depth int
	next  int64
}

func openDAC(depth int) func() (ordertrace.Source, error) {
	return func() (ordertrace.Source, error) { return &dacSource{depth: depth, next: 1}, nil }
}

func openMaster(workers, rounds int) func() (ordertrace.Source, error) {
	return func() (ordertrace.Source, error) { return &masterSource{workers: workers, rounds: rounds}, nil }
}

func dacOrders(depth int) int64 { return 1<<(depth+1) - 1 }

func (s *dacSource) Next() (*ordertrace.Order, error) {
	id := s.next
	if id > dacOrders(s.depth) {
		return nil, io.EOF
	}
	s.next++
	o := &ordertrace.Order{ID: id, Parent: id / 2, Proc: "dac", ArgBytes: 800}
	if id > 1 {
		o.MadeAt = 1
	}
	if id > dacOrders(s.depth-1) {
		o.Duration = 4
		o.Results = []ordertrace.Result{{At: 4, Bytes: 400}}
		return o, nil
	}
	o.Duration = 2
	o.Requests = []ordertrace.Request{{Order: 2 * id, At: 1}, {Order: 2*id + 1, At: 1}}
	o.Results = []ordertrace.Result{{At: 2, Bytes: 800}}
	return o, nil
}

// masterSource streams a master making workers tasks (3 s each) per
// round, 0.01 s apart, and waiting for them at the end of the round.
type masterSource struct {
	workers, rounds int
	next            int64
}

func (s *masterSource) Next() (*ordertrace.Order, error) {
	total := int64(s.workers*s.rounds) + 1
	if s.next == total {
		return nil, io.EOF
	}
	s.next++
	if s.next == 1 {
		return s.master(), nil
	}
	k := s.next - 2
	round := float64(k / int64(s.workers))
	at := round*float64(s.workers)*0.01 + float64(k%int64(s.workers))*0.01
	return &ordertrace.Order{ID: s.next, Parent: 1, Proc: "task", MadeAt: at, ArgBytes: 1000, Duration: 3,
		Results: []ordertrace.Result{{At: 3, Bytes: 100}}}, nil
}

func (s *masterSource) master() *ordertrace.Order {
	round := float64(s.workers) * 0.01
	o := &ordertrace.Order{ID: 1, Proc: "master", Duration: round * float64(s.rounds)}
	for k := range s.workers * s.rounds {
		end := round * float64(k/s.workers+1)
		o.Requests = append(o.Requests, ordertrace.Request{Order: int64(k + 2), At: end})
	}
	o.Results = []ordertrace.Result{{At: o.Duration}}
	return o
}
