package orders

import (
	"context"
	"errors"
	"io"
	"testing"

	"github.com/presage-dvm/presage/orders/ordersched"
)

// TestLostNodeAsksBackAgain: an order started ahead on a live node, its
// start (and so the question asking it back) gone through the node
// holding its arguments, is asked again straight away when that node is
// lost: the first question may be lost with it, and the core it was
// asked back for would wait for the answer for ever.
func TestLostNodeAsksBackAgain(t *testing.T) {
	conn := &fakeConn{}
	c := &coordinator{conn: conn, pool: newPool(4, ordersched.FIFO, false, 0), cores: 2, stderr: io.Discard,
		orders: map[int64]*tracked{}, byName: map[ref]*tracked{}}
	c.runState.start(context.Background(), false)
	c.pool.ahead = 1
	for i, inbox := range []string{"n0", "n1"} {
		c.nodes = append(c.nodes, &member{index: i, inbox: inbox, slots: []int{2 * i, 2*i + 1}, alive: true,
			out: newOutbox(conn, inbox, c.fail)})
	}
	// Order 7, started ahead on core 2 (node 1) through node 0, is asked
	// back, and begins there (its node speaks) before the question comes.
	tk := &ticket{worker: 2, ahead: true, reclaiming: true}
	o := &tracked{id: 7, exec: 1, slot: 2, via: 0, aheadOn: tk}
	tk.order, c.orders[7] = o, o
	c.pool.workers[2].running = true
	c.pool.inFlight = 1
	c.askBack(tk)
	if o.backVia != c.nodes[0] {
		t.Fatalf("asked back through %v, want node 0 (the start went through it)", o.backVia)
	}
	o.heard = true
	c.lose(c.nodes[0], errors.New("killed"))
	if !conn.sentWith("n1", hBack, "7") {
		t.Error("node 0, which the question went through, was lost: want order 7 asked back again, straight from node 1")
	}
}

// TestJoinKeepsTheEndsOfJoinedWorkers: a worker process that ends after
// it joined does not end the wait for the others: its end is returned,
// to be lost once the run begins, as during the run; one that ends
// before it joined fails the join.
func TestJoinKeepsTheEndsOfJoinedWorkers(t *testing.T) {
	c := &coordinator{nodes: []*member{{index: 0, pid: 100}}}
	joined, exited := make(chan struct{}), make(chan Exit)
	go func() {
		exited <- Exit{PID: 100, Err: errors.New("signal: killed")} // taken by join,
		close(joined)                                               // then the last worker joins
	}()
	lost, err := c.join(context.Background(), 2, joined, exited)
	if err != nil || len(lost) != 1 || lost[0].PID != 100 {
		t.Fatalf("a joined worker ended: lost %v, %v; want its end and the join", lost, err)
	}
	go func() { exited <- Exit{PID: 200, Err: errors.New("exit status 2")} }()
	if lost, err := c.join(context.Background(), 3, make(chan struct{}), exited); err == nil || lost != nil {
		t.Errorf("a worker that never joined ended: lost %v, %v; want the join failed", lost, err)
	}
}
