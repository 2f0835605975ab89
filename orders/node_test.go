package orders

import (
	"context"
	"sync"
	"testing"
	"time"
)

// fakeConn keeps what is published on it, out of its batches, and
// answers every request stale, once answer is closed: a worker
// process's connection to a coordinator that lost every execution it
// hears from.
type fakeConn struct {
	answer chan struct{}
	mu     sync.Mutex
	sent   []*Message
}

func (c *fakeConn) Publish(m *Message) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return unbatched(m, func(x *Message) { c.sent = append(c.sent, x) })
}

func (c *fakeConn) Request(ctx context.Context, _ *Message) (*Message, error) {
	select {
	case <-c.answer:
		return message("", nil, hStale, true), nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

func (c *fakeConn) Subscribe(string, func(*Message)) (func() error, error) {
	return func() error { return nil }, nil
}
func (c *fakeConn) NewInbox() string { return "node" }
func (c *fakeConn) Flush() error     { return nil }
func (c *fakeConn) Close()           {}

// sentWith reports whether a message to subject carrying header h for
// order id was published.
func (c *fakeConn) sentWith(subject, h, id string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, m := range c.sent {
		if m.Subject == subject && m.Header[h] != "" && m.Header[hOrder] == id {
			return true
		}
	}
	return false
}

// getsItsChild makes a child and waits for its result.
var getsItsChild = Recursive("orders.test.getsItsChild", func(self *Procedure1[int, int], c *Ctx, n int) (int, error) {
	if n == 0 {
		return 0, nil
	}
	return Make(c, self, n-1).Get(c)
})

// TestLostExecutionFreesItsCore: an execution the coordinator lost
// (its request answered stale: the node its start went through was
// lost, and the order runs again elsewhere) ends without a word, and its
// core goes on with the start queued behind it, which otherwise waits
// for an end that never comes.
func TestLostExecutionFreesItsCore(t *testing.T) {
	conn := &fakeConn{answer: make(chan struct{})}
	n := &node{conn: conn, inbox: "node", stubs: map[ref]*order{}, args: map[ref][]byte{},
		arrivals: map[ref]chan struct{}{}, to: map[string]*outbox{}, cores: newCores()}
	n.start(context.Background(), false)
	defer n.cancel()
	n.out = newOutbox(conn, subjectBatch, n.fail)
	args, err := encode1(1)
	if err != nil {
		t.Fatal(err)
	}
	start := func(id int, queued bool) *Message {
		m := message("node", args, hOrder, id, hExec, 1, hProc, getsItsChild.name, hSlot, 0, hParent, 1, hChild, id)
		if queued {
			m.Header[hQueued] = "true"
		}
		return m
	}
	n.cores.start(start(2, false), n.run, n.out.put)
	n.cores.start(start(3, true), n.run, n.out.put) // behind 2, on a busy core
	close(conn.answer)                              // 2's request: stale
	for deadline := time.Now().Add(10 * time.Second); !conn.sentWith(subjectBegan, hOrder, "3"); time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the lost execution of order 2 ended, and order 3, queued behind it, never began")
		}
	}
}
