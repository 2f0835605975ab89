package orders

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"runtime/debug"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/presage-dvm/presage/orders/ordersched"
)

// node is a worker process of a run in several processes, a computer of
// the cluster (sim/ordersim's node): it runs the orders the coordinator
// starts on its cores, each in a goroutine, tells the coordinator of the
// orders they make and ask for, and holds their data: the arguments of
// the orders made or run here, which it sends on to the node an order
// starts on, and the results made here, which it sends ahead to the
// maker's node and gives any node that fetches them. It is the runtime
// of the orders it runs.
type node struct {
	conn  Conn
	proc  int
	inbox string
	out   *outbox // the orders made and ended here, to the coordinator

	mu    sync.Mutex
	stubs map[ref]*order // the orders known here, by name, whose results may come here
	// args are the encoded arguments of the orders made or run here, by
	// name, kept for the run: an order whose node is lost runs again,
	// and its arguments go from here to its new node.
	args map[ref][]byte
	// arrivals are closed when the result of the order they name is
	// stored: a requester the coordinator told the result is on its way
	// here waits on it.
	arrivals map[ref]chan struct{}
	// to batches what this node sends other nodes, by inbox.
	to map[string]*outbox
	// cores holds the starts sent ahead until their cores free.
	cores cores
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
	n := &node{conn: conn, inbox: conn.NewInbox(), stubs: map[ref]*order{}, args: map[ref][]byte{},
		arrivals: map[ref]chan struct{}{}, to: map[string]*outbox{},
		cores: newCores()}
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
		case m.Header[hPingPeer] != "": // ModeNetwork's round trips to another worker (pairTimes)
			go n.timePeer(m)
		case m.Header[hCPU] != "": // ModeNetwork's runtime probe (probeRuntime)
			n.tellCPU(m)
		case m.Header[hPing] != "": // ModeNetwork's round trip (coordinatorTimes, roundTrips)
			if err := n.pong(m); err != nil {
				n.fail(err)
			}
		case m.Header[hResult] != "":
			if err := n.keep(m); err != nil {
				n.fail(err)
			}
		case m.Header[hBack] != "" && m.Header[hTo] != "":
			n.sendOn(m, nil) // after the start it asks back, which went this way with its arguments
		case m.Header[hBack] != "":
			n.giveBack(m)
		case m.Header[hTo] != "":
			if err := n.forward(m); err != nil {
				n.fail(err)
			}
		case m.Header[hFetch] != "":
			if err := n.give(m); err != nil {
				n.fail(err)
			}
		case m.Header[hRelease] != "":
			slot, err := strconv.Atoi(m.Header[hSlot])
			if err != nil {
				n.fail(fmt.Errorf("orders: a release of core %q: %w", m.Header[hSlot], err))
				return
			}
			n.cores.free(slot, nil, n.out.put, n.run)
		default:
			n.cores.start(m, n.run, n.out.put)
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
// unless the run ended first. Its result stays here, and goes ahead to
// its maker's node when the start names one; the coordinator gets it
// when it is main's (the program's answer) or small, and a failure,
// which ends the run.
func (n *node) run(m *Message) {
	f := fields{m: m}
	o := &order{id: f.int(hOrder), exec: int(f.int(hExec)), slot: int(f.int(hSlot)), proc: f.str(hProc), remote: true,
		name: f.ref()}
	if f.err != nil {
		n.fail(f.err)
		return
	}
	args, err := n.argsOf(o.name, m)
	if err != nil {
		n.fail(err)
		return
	}
	result, size, fail, ok := n.execute(o, args)
	if !ok {
		// The run ended, or the coordinator lost this execution (its
		// request was answered stale, while it held its core): nobody
		// waits for its end, but the starts queued for its core do.
		n.cores.free(o.slot, nil, n.out.put, n.run)
		return
	}
	n.store(o.name, result, fail)
	done := []any{hOrder, o.id, hExec, o.exec, hBytes, size}
	if ahead := m.Header[hAhead]; ahead != "" && fail == nil {
		// Before the end: the coordinator, hearing of it, may tell the
		// maker its result is on its node.
		b := n.sendTo(ahead, message(ahead, result, hResult, true, hParent, o.name.Parent, hChild, o.name.Child))
		if err := b.flush(); err != nil {
			n.fail(err)
			return
		}
		done = append(done, hNode, m.Header[hNode])
	}
	data, failed := outcome(result, fail)
	if fail == nil && o.name != (ref{}) && len(result) > ordersched.InlineBytes {
		data = nil // it stays here: the coordinator gets main's, and small ones
	}
	n.cores.free(o.slot, func(next string) {
		if next != "" {
			done = append(done, hNext, next, hSlot, o.slot)
		}
		n.out.put(message(subjectDone, data, append(failed, done...)...))
	}, n.out.put, n.run)
}

// argsOf returns the encoded arguments of the order named r that start
// m starts: m's data, which it keeps when large (the coordinator keeps
// small ones), or those kept here (hLocal).
func (n *node) argsOf(r ref, m *Message) ([]byte, error) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if m.Header[hLocal] == "" {
		if len(m.Data) > ordersched.InlineBytes {
			n.args[r] = m.Data
		}
		return m.Data, nil
	}
	args, ok := n.args[r]
	if !ok {
		return nil, fmt.Errorf("orders: the coordinator started child %d of order %d here, whose arguments are not here", r.Child, r.Parent)
	}
	return args, nil
}

// forward sends start m on to the node it names (hTo), with the
// arguments of its order, which are here.
func (n *node) forward(m *Message) error {
	f := fields{m: m}
	r := f.ref()
	if f.err != nil {
		return f.err
	}
	n.mu.Lock()
	args, ok := n.args[r]
	n.mu.Unlock()
	if !ok {
		return fmt.Errorf("orders: asked to send on the arguments of child %d of order %d, which are not here", r.Child, r.Parent)
	}
	n.sendOn(m, args)
	return nil
}

// sendOn sends m on to the node its hTo names, without hTo, with data.
func (n *node) sendOn(m *Message, data []byte) {
	to := m.Header[hTo]
	h := maps.Clone(m.Header)
	delete(h, hTo)
	n.sendTo(to, &Message{Subject: to, Header: h, Data: data})
}

// sendTo sends m to another node's inbox, batched with what else goes
// there meanwhile, and returns the outbox it went into.
func (n *node) sendTo(inbox string, m *Message) *outbox {
	n.mu.Lock()
	b := n.to[inbox]
	if b == nil {
		b = newOutbox(n.conn, inbox, n.fail)
		n.to[inbox] = b
	}
	n.mu.Unlock()
	b.put(m)
	return b
}

// give answers the Get the coordinator names (hFetch, hReply) with the
// result of an order made here, or hMissing when it is not here.
func (n *node) give(m *Message) error {
	f := fields{m: m}
	r := f.ref()
	if f.err != nil {
		return f.err
	}
	n.mu.Lock()
	o := n.stubs[r]
	var data []byte
	ok := o != nil && o.wire != nil
	if ok {
		data = o.wire
	}
	n.mu.Unlock()
	to, slot := m.Header[hReply], m.Header[hSlot]
	if !ok {
		return n.conn.Publish(message(to, nil, hMissing, true, hSlot, slot))
	}
	return n.conn.Publish(&Message{Subject: to, Header: map[string]string{hResult: "true", hSlot: slot}, Data: data})
}

// keep keeps a result the coordinator sent ahead.
func (n *node) keep(m *Message) error {
	f := fields{m: m}
	name := f.ref()
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
	if ch := n.arrivals[r]; ch != nil {
		close(ch)
		delete(n.arrivals, r)
	}
}

// arrival returns a channel closed once the result of the order named r
// is here.
func (n *node) arrival(r ref) <-chan struct{} {
	n.mu.Lock()
	defer n.mu.Unlock()
	if o := n.stubs[r]; o != nil && (o.wire != nil || o.err != nil) {
		return closed
	}
	ch := n.arrivals[r]
	if ch == nil {
		ch = make(chan struct{})
		n.arrivals[r] = ch
	}
	return ch
}

var closed = func() chan struct{} { ch := make(chan struct{}); close(ch); return ch }()

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
	var inline []byte // small arguments go with the making, and the coordinator keeps them
	if len(args) <= ordersched.InlineBytes {
		inline = args
	} else {
		n.mu.Lock()
		n.args[r] = args // here until the order starts, and sent on from here
		n.mu.Unlock()
	}
	n.out.putSoon(message(subjectMake, inline, hParent, p.id, hExec, p.exec, hProc, spec.name, hBytes, spec.argBytes))
	return n.stub(r)
}

// get waits until o's result is here: the coordinator frees the core of
// the order c runs meanwhile, and answers, saying on which core it goes
// on, once the result is here or on its way (sent ahead by the node that
// made it); else a node holding it answers, with it. When that node is
// gone, it asks the coordinator again, which has the order made again
// once no live node holds its result.
func (n *node) get(c *Ctx, o *order) error {
	for {
		n.mu.Lock()
		known := o.wire != nil || o.err != nil
		n.mu.Unlock()
		if known {
			return nil
		}
		done, err := n.request(c, o)
		if done || err != nil {
			return err
		}
		time.Sleep(fetchRetry)
	}
}

// fetchRetry is how long a requester waits before asking the coordinator
// again for a result whose holder did not have it (the holder was lost
// and came back as another node, or the coordinator does not know yet).
const fetchRetry = 20 * time.Millisecond

// request asks the coordinator for o's result once, for the order c
// runs, and waits until it is here; done is false when it could not
// fetch it and must ask again.
func (n *node) request(c *Ctx, o *order) (done bool, err error) {
	wrap := func(err error) error {
		n.check()
		return fmt.Errorf("orders: requesting order %d's child %d: %w", o.name.Parent, o.name.Child, err)
	}
	// The coordinator hears of o's making, and of the ends o waits for,
	// before this request.
	if err := n.out.flush(); err != nil {
		return false, wrap(err)
	}
	req := message(subjectGet, nil, hOrder, c.ord.id, hExec, c.ord.exec, hSlot, c.ord.slot, hParent, o.name.Parent, hChild, o.name.Child)
	m, err := n.conn.Request(n.ctx, req)
	if err != nil {
		return false, wrap(err)
	}
	if m.Header[hStale] != "" || m.Header[hStop] != "" {
		panic(abandoned{}) // the run ended, or this execution was lost, while the order waited
	}
	f := fields{m: m}
	slot := int(f.int(hSlot))
	fail, err := failureOf(m)
	if err = errors.Join(f.err, err); err != nil {
		return false, err
	}
	c.ord.slot = slot
	n.cores.occupy(slot)
	switch {
	case fail != nil:
		n.store(o.name, nil, fail)
	case m.Header[hAgain] != "" || m.Header[hMissing] != "":
		return false, nil
	case m.Header[hResult] != "":
		n.store(o.name, m.Data, nil)
	default:
		select {
		case <-n.arrival(o.name):
		case <-n.ctx.Done():
			n.check()
		}
	}
	return true, nil
}

func (n *node) block(_ *Ctx, _ string, _ Cost, real, _ func()) { real() }
