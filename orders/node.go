package orders

import (
	"context"
	"errors"
	"fmt"
	"os"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"time"
)

// node is a worker process of a run in several processes, a computer of
// the cluster (sim/ordersim's node): it runs the orders the coordinator
// starts on its cores, each in a goroutine, tells the coordinator of the
// orders they make and asks it for the results they request. It is the
// runtime of the orders it runs.
type node struct {
	conn  Conn
	proc  int
	inbox string
	out   *outbox // the orders made and ended here, to the coordinator

	mu    sync.Mutex
	stubs map[ref]*order // the orders known here, by name, whose results may come here
	runState
}

// thisNode is the process's node, when it is one: handles decoded from
// arguments refer to its orders.
var thisNode atomic.Pointer[node]

// remoteOrder returns the order named r of a run in several processes,
// as the handles of this process know it.
func remoteOrder(r ref) *order {
	n := thisNode.Load()
	if n == nil {
		return &order{name: r, remote: true}
	}
	return n.stub(r)
}

func (n *node) stub(r ref) *order {
	n.mu.Lock()
	defer n.mu.Unlock()
	o := n.stubs[r]
	if o == nil {
		o = &order{name: r, remote: true}
		n.stubs[r] = o
	}
	return o
}

// wireResult returns the encoded result of o, a remote order that ended.
func (o *order) wireResult() []byte {
	if n := thisNode.Load(); n != nil {
		n.mu.Lock()
		defer n.mu.Unlock()
	}
	return o.wire
}

// serveIfWorker makes this process, when cfg and its environment make
// it a worker process of a run (Transport.Join), a worker of its
// coordinator until the run ends, and then ends the process: it returns
// only when this process is not a worker, or with the error of joining.
// Losing the coordinator ends it with an error; so does the run's
// failure, which a worker the coordinator started itself (spawned) does
// not print: the coordinator does, on the same terminal.
func serveIfWorker(ctx context.Context, t Transport, cfg Config) error {
	lost := make(chan error, 1)
	conn, spawned, err := t.Join(ctx, cfg, func(err error) {
		select {
		case lost <- err:
		default:
		}
	})
	if err != nil || conn == nil {
		return err
	}
	err = work(ctx, conn, lost)
	conn.Close()
	if err == nil {
		os.Exit(0)
	}
	if !spawned || !errors.Is(err, errRunFailed) {
		fmt.Fprintf(os.Stderr, "orders: worker %d: %v\n", os.Getpid(), err)
	}
	os.Exit(1)
	return nil
}

// errRunFailed is a worker's error when the run it served failed.
var errRunFailed = errors.New("the run ended")

// work runs the orders of the coordinator conn joined until it says the
// run ended; lost says when the connection is lost.
func work(ctx context.Context, conn Conn, lost <-chan error) error {
	n := &node{conn: conn, inbox: conn.NewInbox(), stubs: map[ref]*order{}}
	n.start(ctx, false)
	defer n.cancel()
	n.out = newOutbox(conn, subjectBatch, n.fail)
	thisNode.Store(n)

	stop := make(chan string, 1)
	handle := func(m *Message) {
		switch {
		case m.Header[hStop] != "":
			select {
			case stop <- m.Header[hWhy]:
			default:
			}
		case m.Header[hPing] != "": // ModeNetwork's round trip (pingPong)
			_, err := decode1[[]byte](m.Data)
			if err == nil {
				err = respond(conn, m, &Message{Data: m.Data})
			}
			if err != nil {
				n.fail(err)
			}
		case m.Header[hResult] != "":
			if err := n.keep(m); err != nil {
				n.fail(err)
			}
		default:
			go n.run(m)
		}
	}
	_, err := conn.Subscribe(n.inbox, func(m *Message) {
		if err := unbatched(m, handle); err != nil {
			n.fail(err)
		}
	})
	if err != nil {
		return err
	}
	if err := n.hello(); err != nil {
		return err
	}
	go n.beat(ctx)
	select {
	case why := <-stop:
		if why != "" {
			return fmt.Errorf("%w: %s", errRunFailed, why)
		}
		return nil
	case err := <-lost:
		return fmt.Errorf("lost the coordinator at %v", err) // the transport names where: "nats://host:port: EOF"
	case <-ctx.Done():
		return ctx.Err()
	case <-n.ctx.Done():
		// A message this worker could not send, its connection closed,
		// fails it before the transport reports the loss, which says
		// why the connection closed: wait a moment for it.
		select {
		case err := <-lost:
			return fmt.Errorf("lost the coordinator at %v", err)
		case <-time.After(lostGrace):
		}
		return n.err(ctx)
	}
}

// lostGrace is how long a failed worker waits for the transport to
// report the loss of its connection (Transport.Join's lost), which comes
// from another goroutine a moment after the connection closed.
const lostGrace = 200 * time.Millisecond

// hello tells the coordinator the worker is ready and learns its number.
func (n *node) hello() error {
	host, _ := os.Hostname()
	b, err := encode1(helloMsg{Inbox: n.inbox, Host: host, PID: os.Getpid()})
	if err != nil {
		return err
	}
	// The coordinator may listen a moment before it answers hellos.
	ctx, cancel := context.WithTimeout(n.ctx, 30*time.Second)
	defer cancel()
	m, err := n.conn.Request(ctx, &Message{Subject: subjectHello, Data: b})
	for errors.Is(err, ErrNoResponders) && ctx.Err() == nil {
		time.Sleep(100 * time.Millisecond)
		m, err = n.conn.Request(ctx, &Message{Subject: subjectHello, Data: b})
	}
	if err != nil {
		return fmt.Errorf("joining the coordinator: %w", err)
	}
	r, err := decode1[helloReply](m.Data)
	if err != nil {
		return err
	}
	if r.Err != "" {
		return fmt.Errorf("the coordinator refused this worker: %s", r.Err)
	}
	n.proc = r.Proc
	return nil
}

// beat tells the coordinator the worker is alive, until the run ends.
func (n *node) beat(ctx context.Context) {
	t := time.NewTicker(heartbeat)
	defer t.Stop()
	for {
		select {
		case <-t.C:
			if err := n.conn.Publish(message(subjectBeat, nil, hProc, n.proc)); err != nil {
				return
			}
		case <-ctx.Done():
			return
		case <-n.ctx.Done():
			return
		}
	}
}

// fail ends the worker with err.
func (n *node) fail(err error) {
	n.runState.mu.Lock()
	defer n.runState.mu.Unlock()
	if n.first == nil {
		n.first = err
		n.runState.cancel()
	}
}

// run runs the order m starts and tells the coordinator how it ended,
// unless the run ended first.
func (n *node) run(m *Message) {
	f := fields{m: m}
	o := &order{id: f.int(hOrder), exec: int(f.int(hExec)), slot: int(f.int(hSlot)), proc: f.str(hProc), remote: true,
		name: ref{Parent: f.int(hParent), Child: int(f.int(hChild))}}
	if f.err != nil {
		n.fail(f.err)
		return
	}
	result, size, fail, ok := n.execute(o, m.Data)
	if !ok {
		return // the run ended, or the coordinator lost this execution: nobody waits for it
	}
	n.store(o.name, result, fail)
	data, failed := outcome(result, fail)
	n.out.put(message(subjectDone, data, append(failed, hOrder, o.id, hExec, o.exec, hBytes, size)...))
}

// keep keeps a result the coordinator sent ahead.
func (n *node) keep(m *Message) error {
	f := fields{m: m}
	name := ref{Parent: f.int(hParent), Child: int(f.int(hChild))}
	fail, err := failureOf(m)
	if err = errors.Join(f.err, err); err != nil {
		return err
	}
	n.store(name, m.Data, fail)
	return nil
}

// store keeps the result (or the failure) of the order named r, for the
// orders of this node that request it.
func (n *node) store(r ref, result []byte, fail *wireFailure) {
	o := n.stub(r)
	n.mu.Lock()
	defer n.mu.Unlock()
	switch {
	case o.wire != nil || o.err != nil:
	case fail != nil:
		o.err = fail.orderError()
	default:
		o.wire = result
		if o.wire == nil {
			o.wire = []byte{}
		}
	}
}

// execute runs order o on its encoded arguments and returns its encoded
// result and size, or its failure; ok is false when it was abandoned.
func (n *node) execute(o *order, args []byte) (result []byte, size int64, fail *wireFailure, ok bool) {
	defer func() {
		switch v := recover().(type) {
		case nil:
		case abandoned:
			ok = false
		default:
			fail, ok = toWire(orderPanic(o, v)), true
		}
	}()
	p, err := lookup(o.proc)
	if err != nil {
		return nil, 0, toWire(&OrderError{Order: o.id, Proc: o.proc, Err: err}), true
	}
	n.check()
	body, err := p.bind(args)
	if err == nil {
		result, size, err = body(&Ctx{rt: n, ord: o, run: &n.runState})
	}
	if err != nil {
		ended(o, err, nil)
		return nil, 0, toWire(o.err.(error)), true
	}
	return result, size, nil, true
}

// orderPanic returns o's panic v as its failure.
func orderPanic(o *order, v any) error {
	if m, ok := v.(*MisuseError); ok {
		return &OrderError{Order: o.id, Proc: o.proc, Err: m}
	}
	return &OrderError{Order: o.id, Proc: o.proc, Err: &PanicError{Value: v, Stack: debug.Stack()}}
}

// make tells the coordinator of an order the order parent runs makes,
// and returns it as known here, by its name: the coordinator numbers
// it, and places it, when the message arrives.
func (n *node) make(parent *Ctx, spec orderSpec) *order {
	n.check()
	args, err := spec.encode()
	if err != nil {
		misuse("the arguments of %s cannot travel to another process: %v", spec.name, err)
	}
	p := parent.ord
	r := ref{Parent: p.id, Child: p.made}
	p.made++
	n.out.putSoon(message(subjectMake, args, hParent, p.id, hExec, p.exec, hProc, spec.name, hBytes, spec.argBytes))
	return n.stub(r)
}

// get waits until o's result is here: the coordinator frees the core of
// the order c runs meanwhile, and says on which core it goes on.
func (n *node) get(c *Ctx, o *order) error {
	n.mu.Lock()
	known := o.wire != nil || o.err != nil
	n.mu.Unlock()
	if known {
		return nil
	}
	// The coordinator hears of o's making, and of the ends o waits for,
	// before this request.
	if err := n.out.flush(); err != nil {
		n.check()
		return fmt.Errorf("orders: requesting order %d's child %d: %w", o.name.Parent, o.name.Child, err)
	}
	req := message(subjectGet, nil, hOrder, c.ord.id, hExec, c.ord.exec, hSlot, c.ord.slot, hParent, o.name.Parent, hChild, o.name.Child)
	m, err := n.conn.Request(n.ctx, req)
	if err != nil {
		n.check()
		return fmt.Errorf("orders: requesting order %d's child %d: %w", o.name.Parent, o.name.Child, err)
	}
	if m.Header[hStale] != "" || m.Header[hStop] != "" {
		panic(abandoned{}) // the run ended, or this execution was lost, while the order waited
	}
	f := fields{m: m}
	slot := int(f.int(hSlot))
	fail, err := failureOf(m)
	if err = errors.Join(f.err, err); err != nil {
		return err
	}
	c.ord.slot = slot
	n.store(o.name, m.Data, fail)
	return nil
}

func (n *node) block(_ *Ctx, _ string, _ Cost, real, _ func()) { real() }
