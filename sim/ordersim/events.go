package ordersim

// kind is what an event does to its order.
type kind uint8

const (
	evStep   kind = iota // a running order reaches its next own moment
	evStart              // an order's arguments reached the core holding for it
	evArrive             // an order's arguments reached the node it was placed on
	evResume             // a requested result reached a suspended order's node
)

type event struct {
	t    float64
	seq  uint64 // ties: in the order they were scheduled
	kind kind
	ord  *live
}

// events is a binary min-heap on (t, seq): a hand-written heap, because
// container/heap's interface calls cost a third of the simulation.
type events struct {
	h   []event
	seq uint64
}

func (q *events) len() int { return len(q.h) }

func (q *events) less(i, j int) bool {
	a, b := &q.h[i], &q.h[j]
	return a.t < b.t || (a.t == b.t && a.seq < b.seq)
}

func (q *events) push(t float64, k kind, o *live) {
	q.seq++
	q.h = append(q.h, event{t: t, seq: q.seq, kind: k, ord: o})
	i := len(q.h) - 1
	for i > 0 {
		p := (i - 1) / 2
		if !q.less(i, p) {
			break
		}
		q.h[i], q.h[p] = q.h[p], q.h[i]
		i = p
	}
}

func (q *events) pop() event {
	top := q.h[0]
	last := len(q.h) - 1
	q.h[0] = q.h[last]
	q.h[last] = event{}
	q.h = q.h[:last]
	i := 0
	for {
		l := 2*i + 1
		if l >= last {
			break
		}
		m := l
		if r := l + 1; r < last && q.less(r, l) {
			m = r
		}
		if !q.less(m, i) {
			break
		}
		q.h[i], q.h[m] = q.h[m], q.h[i]
		i = m
	}
	return top
}
