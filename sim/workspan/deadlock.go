package workspan

import (
	"fmt"
	"strings"
)

// DeadlockError reports orders that no execution can finish: when the
// trace ends they still wait, each for the next, around a cycle (or for
// something the trace never provides, when the trace was not validated).
type DeadlockError struct {
	Waits []Wait // the chain of waits, from the first order that cannot finish
	Cycle bool   // the last wait is for the order of an earlier one
}

// Wait is one order waiting: for a result of another order at own moment
// At, or, when Result < 0, for its parent to reach the moment of making
// it.
type Wait struct {
	Order  int64
	At     float64
	For    int64 // the order waited for
	Result int
}

func (w Wait) String() string {
	if w.Result < 0 {
		return fmt.Sprintf("order %d waits for order %d to make it at %v", w.Order, w.For, w.At)
	}
	return fmt.Sprintf("order %d waits at %v for result %d of order %d", w.Order, w.At, w.Result, w.For)
}

func (e *DeadlockError) Error() string {
	parts := make([]string, len(e.Waits))
	for i, w := range e.Waits {
		parts[i] = w.String()
	}
	what := "a wait that nothing ends"
	if e.Cycle {
		what = "a cycle: no execution can finish"
	}
	return fmt.Sprintf("deadlock: %s (%s)", strings.Join(parts, "; "), what)
}

// deadlock returns the chain of waits from the first unfinished order,
// or nil when every order finished.
func (s *schedule) deadlock() error {
	first := int64(0)
	for id := int64(1); id <= s.recs.len() && first == 0; id++ {
		if r := s.recs.find(id); r != nil && r.run != 0 {
			first = id
		}
	}
	if first == 0 {
		return nil
	}
	e := &DeadlockError{}
	seen := make(map[int64]bool)
	for id := first; !seen[id]; {
		seen[id] = true
		w := s.waitOf(id)
		e.Waits = append(e.Waits, w)
		if r := s.recs.find(w.For); r == nil || r.run == 0 {
			return e // waits for an order never read, or a result never provided
		}
		id = w.For
	}
	e.Cycle = true
	e.Waits = fromRepeat(e.Waits)
	return e
}

// waitOf says what unfinished order id waits for.
func (s *schedule) waitOf(id int64) Wait {
	p := s.progress(s.recs.at(id))
	if !p.started {
		return Wait{Order: id, At: p.made(), For: int64(p.parent), Result: -1}
	}
	q := s.request(p, p.next)
	return Wait{Order: id, At: q.At, For: q.Order, Result: q.Result}
}

// fromRepeat drops the waits that lead into the cycle, keeping the cycle
// itself: the last wait is for the order of the first one kept.
func fromRepeat(ws []Wait) []Wait {
	last := ws[len(ws)-1].For
	for i, w := range ws {
		if w.Order == last {
			return ws[i:]
		}
	}
	return ws
}
