package ordertrace

// pendingRequest is a request for an order not read yet.
type pendingRequest struct {
	from   int64
	result int
	at     float64
	line   int64
	next   int32 // the next request for the same order, -1 at the end
}

// pendingSet holds the requests for orders not read yet, chained per
// target in one array whose freed entries are reused: remembering a
// request costs no allocation once the set has grown to its peak.
type pendingSet struct {
	first map[int64]int32 // target id → its first request
	items []pendingRequest
	free  int32 // first free entry, -1 when none
}

func newPendingSet() pendingSet { return pendingSet{first: make(map[int64]int32), free: -1} }

// add remembers p as a request for target.
func (s *pendingSet) add(target int64, p pendingRequest) {
	p.next = -1
	if head, ok := s.first[target]; ok {
		p.next = head
	}
	i := s.free
	if i >= 0 {
		s.free = s.items[i].next
		s.items[i] = p
	} else {
		i = int32(len(s.items))
		s.items = append(s.items, p)
	}
	s.first[target] = i
}

// take removes the requests for target and calls f with each one, in no
// particular order, stopping at f's first error.
func (s *pendingSet) take(target int64, f func(p pendingRequest) error) error {
	i, ok := s.first[target]
	if !ok {
		return nil
	}
	delete(s.first, target)
	var err error
	for i >= 0 {
		p := s.items[i]
		s.items[i].next, s.free = s.free, i
		if err == nil {
			err = f(p)
		}
		i = p.next
	}
	return err
}

// earliest returns the remembered request with the smallest line and its
// target; ok is false when none is left.
func (s *pendingSet) earliest() (p pendingRequest, target int64, ok bool) {
	for t, i := range s.first {
		for ; i >= 0; i = s.items[i].next {
			if q := s.items[i]; !ok || q.line < p.line {
				p, target, ok = q, t, true
			}
		}
	}
	return p, target, ok
}
