package orders

import "sync/atomic"

// queue is one worker's list of tasks, oldest first: its owner pushes at
// the back and takes from either end, thieves take from the front. The
// worker's lock guards the tasks; size mirrors their number so that a
// thief looking for work skips empty queues without taking their locks.
type queue struct {
	tasks []*task
	head  int // tasks[:head] are taken
	size  atomic.Int32
}

func (q *queue) push(t *task) {
	if q.head > 0 && q.head == len(q.tasks) {
		q.tasks, q.head = q.tasks[:0], 0 // empty: reuse the array from its start
	}
	q.tasks = append(q.tasks, t)
	q.size.Add(1)
}

// front takes the oldest task, nil if none.
func (q *queue) front() *task {
	if q.head == len(q.tasks) {
		return nil
	}
	t := q.tasks[q.head]
	q.tasks[q.head] = nil
	q.head++
	if q.head > 64 && q.head > len(q.tasks)/2 { // most of the array is taken: move what is left down
		n := copy(q.tasks, q.tasks[q.head:])
		clear(q.tasks[n:])
		q.tasks, q.head = q.tasks[:n], 0
	}
	q.size.Add(-1)
	return t
}

// back takes the newest task, nil if none.
func (q *queue) back() *task {
	last := len(q.tasks) - 1
	if last < q.head {
		return nil
	}
	t := q.tasks[last]
	q.tasks[last] = nil
	q.tasks = q.tasks[:last]
	q.size.Add(-1)
	return t
}
