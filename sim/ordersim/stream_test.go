package ordersim

import (
	"io"

	"github.com/presage-dvm/presage/sim/ordertrace"
)

// dacSource streams a divide-and-conquer trace of the given depth,
// numbered level by level (order i makes 2i and 2i+1), the order in which
// an as-soon-as-possible run makes them: an inner order splits (1 s),
// makes its halves, waits for both and combines (1 s); a leaf works 4 s.
// It keeps nothing but a counter; like a reader filling a buffer, it
// hands out orders from batches, and gives every leaf (every inner
// order) the same Results, which the simulation only reads.
type dacSource struct {
	depth int
	next  int64
	batch []ordertrace.Order
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
	if len(s.batch) == 0 {
		s.batch = make([]ordertrace.Order, 1024)
	}
	o := &s.batch[0]
	s.batch = s.batch[1:]
	*o = ordertrace.Order{ID: id, Parent: id / 2, Proc: "dac", ArgBytes: 800}
	if id > 1 {
		o.MadeAt = 1
	}
	if id > dacOrders(s.depth-1) {
		o.Duration = 4
		o.Results = leafResults
		return o, nil
	}
	o.Duration = 2
	o.Requests = []ordertrace.Request{{Order: 2 * id, At: 1}, {Order: 2*id + 1, At: 1}}
	o.Results = innerResults
	return o, nil
}

var (
	leafResults  = []ordertrace.Result{{At: 4, Bytes: 400}}
	innerResults = []ordertrace.Result{{At: 2, Bytes: 800}}
)

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

// roundsSource streams a main order that makes, one after the other,
// rounds of tasks: round k is made at k·0.01 and waited for at once; it
// makes its tasks 0.001 apart and waits for them all at its end. A task
// works 1 s. Ids follow the making: main, round 0, its tasks, round 1...
type roundsSource struct {
	tasks, rounds int
	next          int64
}

func openRounds(tasks, rounds int) func() (ordertrace.Source, error) {
	return func() (ordertrace.Source, error) { return &roundsSource{tasks: tasks, rounds: rounds}, nil }
}

func roundsOrders(tasks, rounds int) int64 { return 1 + int64(rounds)*int64(tasks+1) }

func (s *roundsSource) Next() (*ordertrace.Order, error) {
	if s.next == roundsOrders(s.tasks, s.rounds) {
		return nil, io.EOF
	}
	s.next++
	id, w := s.next, int64(s.tasks+1)
	if id == 1 {
		o := &ordertrace.Order{ID: 1, Proc: "main", Duration: 0.01 * float64(s.rounds)}
		for k := range int64(s.rounds) {
			o.Requests = append(o.Requests, ordertrace.Request{Order: 2 + k*w, At: 0.01 * float64(k)})
		}
		o.Results = []ordertrace.Result{{At: o.Duration}}
		return o, nil
	}
	k, i := (id-2)/w, (id-2)%w
	round := 2 + k*w
	if i == 0 {
		d := 0.001 * float64(s.tasks)
		o := &ordertrace.Order{ID: id, Parent: 1, Proc: "round", MadeAt: 0.01 * float64(k), Duration: d}
		for j := range int64(s.tasks) {
			o.Requests = append(o.Requests, ordertrace.Request{Order: id + 1 + j, At: d})
		}
		o.Results = []ordertrace.Result{{At: d, Bytes: 8}}
		return o, nil
	}
	return &ordertrace.Order{ID: id, Parent: round, Proc: "task", MadeAt: 0.001 * float64(i-1), ArgBytes: 1000,
		Duration: 1, Results: []ordertrace.Result{{At: 1, Bytes: 100}}}, nil
}
