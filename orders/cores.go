package orders

import (
	"fmt"
	"slices"
	"strconv"
	"sync"
)

// cores is what a worker process knows of its cores, for the starts the
// coordinator sends ahead (Config.Ahead): a start marked hQueued names a
// core the coordinator counts busy, and waits here until that core
// frees, so that the core goes on at once rather than after a round trip
// through the coordinator. A core frees when its order ends here, or
// when the coordinator says so (hRelease: its order waits for a result,
// which the worker cannot tell from a request answered at once). The
// worker then starts the oldest start queued for it and tells the
// coordinator which: starts that went through the node holding their
// arguments may come in another order than they were sent. Starts not
// marked run at once, as the coordinator decided.
type cores struct {
	mu    sync.Mutex
	busy  map[int]bool
	queue map[int][]*Message // by core, oldest first
}

func newCores() cores {
	return cores{busy: map[int]bool{}, queue: map[int][]*Message{}}
}

// start runs start m (run, in a goroutine of its own) now, or once its
// core frees when m is queued behind the core's order. A start queued
// that finds its core free runs at once, and the worker says so (tell).
func (c *cores) start(m *Message, run func(*Message), tell func(*Message)) {
	slot, err := strconv.Atoi(m.Header[hSlot])
	c.mu.Lock()
	defer c.mu.Unlock()
	if err == nil && m.Header[hQueued] != "" {
		if c.busy[slot] {
			c.queue[slot] = append(c.queue[slot], m)
			return
		}
		tell(message(subjectBegan, nil, hOrder, m.Header[hOrder], hExec, m.Header[hExec], hSlot, slot))
	}
	if err == nil {
		c.busy[slot] = true
	}
	go run(m) // a start that cannot be read fails in run
}

// occupy marks slot busy: an order resumed on it.
func (c *cores) occupy(slot int) {
	c.mu.Lock()
	c.busy[slot] = true
	c.mu.Unlock()
}

// free frees slot, whose order ended or waits, and starts the oldest
// start queued for it, if any. tell gets what the coordinator hears of
// it, under the lock that puts it before any answer to a takeBack: the
// next start's name ("order/exec", "" for none), for the end of the
// order that ran there, or with a release (ended nil), a message on
// subjectBegan when a start follows.
func (c *cores) free(slot int, ended func(next string), tell func(*Message), run func(*Message)) {
	c.mu.Lock()
	defer c.mu.Unlock()
	q := c.queue[slot]
	var m *Message
	if len(q) > 0 {
		m, c.queue[slot] = q[0], q[1:]
	}
	switch {
	case ended != nil && m != nil:
		ended(m.Header[hOrder] + "/" + m.Header[hExec])
	case ended != nil:
		ended("")
	case m != nil:
		tell(message(subjectBegan, nil, hOrder, m.Header[hOrder], hExec, m.Header[hExec], hSlot, slot))
	}
	if m == nil {
		c.busy[slot] = false
		return
	}
	go run(m)
}

// takeBack gives up the start of order id (execution exec) queued for
// slot, if it is queued still, and answers whether it was, under the
// lock: the coordinator hears the answer and the start of that order
// (free, start) in the order they happened. The start came before the
// question, which took the way it took (askBack): not queued, it started.
func (c *cores) takeBack(slot int, id, exec string, answer func(held bool)) {
	c.mu.Lock()
	defer c.mu.Unlock()
	q := c.queue[slot]
	k := slices.IndexFunc(q, func(m *Message) bool { return m.Header[hOrder] == id && m.Header[hExec] == exec })
	if k >= 0 {
		c.queue[slot] = slices.Delete(q, k, k+1)
	}
	answer(k >= 0)
}

// giveBack answers the coordinator's hBack m: whether this node still
// held the start it names, which it then drops.
func (n *node) giveBack(m *Message) {
	slot, err := strconv.Atoi(m.Header[hSlot])
	if err != nil {
		n.fail(fmt.Errorf("orders: asked back an order of core %q: %w", m.Header[hSlot], err))
		return
	}
	n.cores.takeBack(slot, m.Header[hOrder], m.Header[hExec], func(held bool) {
		n.out.put(message(subjectBack, nil, hOrder, m.Header[hOrder], hExec, m.Header[hExec], hBack, held))
	})
}
