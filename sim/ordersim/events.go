package ordersim

// kind is what an event does to its order.
type kind uint8

const (
	evStep   kind = iota // a running order reaches its next own moment
	evStart              // an order's arguments reached the core holding for it
	evArrive             // an order's arguments reached the node it was placed on
	evResume             // a requested result reached a suspended order's node
	evFreed              // the runtime's own work left a core of the node numbered idx (occupy)
)

// event names its order by its number in the engine's arena, not by a
// pointer: a heap of pointer-free values costs the garbage collector
// neither scanning nor write barriers as it moves them.
type event struct {
	t    float64
	seq  uint64 // ties: in the order they were scheduled
	idx  int32  // the order's number in the arena
	kind kind
}

// events is a 4-ary min-heap on (t, seq): hand-written, because
// container/heap's interface calls cost a third of the simulation, and
// 4-ary because it is half as deep as a binary one.
type events struct {
	h   []event
	seq uint64
}

func (q *events) len() int { return len(q.h) }

func (a *event) before(b *event) bool { return a.t < b.t || (a.t == b.t && a.seq < b.seq) }

// push schedules an event and returns its sequence number.
func (q *events) push(t float64, k kind, idx int32) uint64 {
	q.seq++
	ev := event{t: t, seq: q.seq, idx: idx, kind: k}
	i := len(q.h)
	q.h = append(q.h, ev)
	for i > 0 {
		p := (i - 1) / 4
		if !ev.before(&q.h[p]) {
			break
		}
		q.h[i] = q.h[p]
		i = p
	}
	q.h[i] = ev
	return ev.seq
}

func (q *events) pop() event {
	top := q.h[0]
	last := len(q.h) - 1
	ev := q.h[last]
	q.h = q.h[:last]
	if last == 0 {
		return top
	}
	i := 0
	for {
		c := 4*i + 1
		if c >= last {
			break
		}
		m := c
		for j := c + 1; j < min(c+4, last); j++ {
			if q.h[j].before(&q.h[m]) {
				m = j
			}
		}
		if !q.h[m].before(&ev) {
			break
		}
		q.h[i] = q.h[m]
		i = m
	}
	q.h[i] = ev
	return top
}
