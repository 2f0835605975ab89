package orders

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/nats-io/nats.go"
)

// node is a worker process of a run in several processes, a computer of
// the cluster (sim/ordersim's node): it runs the orders the coordinator
// starts on its cores, each in a goroutine, tells the coordinator of the
// orders they make and asks it for the results they request. It is the
// runtime of the orders it runs.
type node struct {
	nc    *nats.Conn
	proc  int
	inbox string

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

// serveAsWorker makes this process a worker of the coordinator at url,
// connecting with opts (its token, TLS), until the run ends, and then
// ends the process: it does not return. Losing the coordinator ends it
// with an error; so does the run's failure, which a worker the
// coordinator started itself (spawned) does not print: the coordinator
// does, on the same terminal.
func serveAsWorker(ctx context.Context, url string, opts []nats.Option, spawned bool, stderr io.Writer) {
	err := work(ctx, url, opts)
	if err == nil {
		os.Exit(0)
	}
	if !spawned || !errors.Is(err, errRunFailed) {
		fmt.Fprintf(stderr, "orders: worker %d: %v\n", os.Getpid(), err)
	}
	os.Exit(1)
}

// errRunFailed is a worker's error when the run it served failed.
var errRunFailed = errors.New("the run ended")

// work joins the coordinator at url and runs its orders until it says
// the run ended.
func work(ctx context.Context, url string, opts []nats.Option) error {
	lost := make(chan error, 1)
	nc, err := connect(url, opts, func(err error) {
		select {
		case lost <- err:
		default:
		}
	})
	if err != nil {
		return err
	}
	defer nc.Close()
	n := &node{nc: nc, inbox: nats.NewInbox(), stubs: map[ref]*order{}}
	n.start(ctx, false)
	defer n.cancel()
	thisNode.Store(n)

	stop := make(chan string, 1)
	sub, err := nc.Subscribe(n.inbox, func(m *nats.Msg) {
		switch {
		case m.Header.Get(hStop) != "":
			select {
			case stop <- m.Header.Get(hWhy):
			default:
			}
		case m.Header.Get(hPing) != "": // ModeNetwork's round trip (pingPong)
			_, err := decode1[[]byte](m.Data)
			if err == nil {
				err = m.Respond(m.Data)
			}
			if err != nil {
				n.fail(err)
			}
		case m.Header.Get(hResult) != "":
			if err := n.keep(m); err != nil {
				n.fail(err)
			}
		default:
			go n.run(m)
		}
	})
	if err != nil {
		return err
	}
	// Arguments may be megabytes each: never drop one.
	if err := sub.SetPendingLimits(-1, -1); err != nil {
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
		return fmt.Errorf("lost the coordinator at %s: %v", url, err)
	case <-ctx.Done():
		return ctx.Err()
	case <-n.ctx.Done():
		return n.err(ctx)
	}
}

// A worker pings its coordinator every pingEvery and takes it for lost
// when pingsUnanswered pings in a row go unanswered: a coordinator that
// died with its computer, or stopped, takes its workers down within
// about 6 s, as a killed one does at once (its connection closes).
const (
	pingEvery       = time.Second
	pingsUnanswered = 5
)

// connect connects to the coordinator's NATS server at url with opts,
// retrying for a while (workers under Slurm may start before it
// listens) unless the server refuses the worker's token or TLS; onLost
// is called when the connection is lost for good.
func connect(url string, opts []nats.Option, onLost func(error)) (*nats.Conn, error) {
	deadline := time.Now().Add(30 * time.Second)
	for {
		nc, err := nats.Connect(url, append(slices.Clip(opts), nats.MaxReconnects(0), nats.Name("presage orders worker"),
			nats.PingInterval(pingEvery), nats.MaxPingsOutstanding(pingsUnanswered),
			nats.ClosedHandler(func(c *nats.Conn) {
				if err := c.LastError(); err != nil {
					onLost(err)
				} else {
					onLost(errors.New("connection closed"))
				}
			}),
			nats.DisconnectErrHandler(func(_ *nats.Conn, err error) {
				if err == nil {
					err = errors.New("disconnected")
				}
				onLost(err)
			}))...)
		if err == nil {
			return nc, nil
		}
		if expected := refusal(err); expected != "" {
			return nil, fmt.Errorf("the coordinator at %s refused this worker: %w (expected %s)", url, err, expected)
		}
		if time.Now().After(deadline) {
			return nil, fmt.Errorf("cannot reach the coordinator at %s: %w", url, err)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// refusal says what the worker lacked when err is the coordinator
// refusing its connection (a wrong token, a certificate the worker does
// not trust, TLS on one side only), "" for another error: trying again
// cannot help a refused worker.
func refusal(err error) string {
	var unknown x509.UnknownAuthorityError
	var host x509.HostnameError
	var verify *tls.CertificateVerificationError
	switch {
	case errors.Is(err, nats.ErrAuthorization):
		return "the run's token, in " + TokenEnv + " or -orders.token-file"
	case errors.Is(err, nats.ErrSecureConnWanted), errors.Is(err, nats.ErrSecureConnRequired):
		return "TLS on both sides: -orders.tls-cert and -orders.tls-key for the coordinator, -orders.tls-ca for its workers"
	case errors.As(err, &unknown), errors.As(err, &host), errors.As(err, &verify):
		return "-orders.tls-ca, the authority that signed the coordinator's certificate, which must name the address workers join"
	}
	return ""
}

// hello tells the coordinator the worker is ready and learns its number.
func (n *node) hello() error {
	host, _ := os.Hostname()
	b, err := encode1(helloMsg{Inbox: n.inbox, Host: host, PID: os.Getpid()})
	if err != nil {
		return err
	}
	// The coordinator may listen a moment before it answers hellos.
	deadline := time.Now().Add(30 * time.Second)
	m, err := n.nc.Request(subjectHello, b, 30*time.Second)
	for errors.Is(err, nats.ErrNoResponders) && time.Now().Before(deadline) {
		time.Sleep(100 * time.Millisecond)
		m, err = n.nc.Request(subjectHello, b, 30*time.Second)
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
			if err := n.nc.PublishMsg(message(subjectBeat, nil, hProc, n.proc)); err != nil {
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
func (n *node) run(m *nats.Msg) {
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
	if err := n.nc.PublishMsg(message(subjectDone, data, append(failed, hOrder, o.id, hExec, o.exec, hBytes, size)...)); err != nil {
		n.fail(err)
	}
}

// keep keeps a result the coordinator sent ahead.
func (n *node) keep(m *nats.Msg) error {
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
	if err := n.nc.PublishMsg(message(subjectMake, args, hParent, p.id, hExec, p.exec, hProc, spec.name, hBytes, spec.argBytes)); err != nil {
		n.check()
		panic(fmt.Errorf("orders: making an order of %s: %w", spec.name, err))
	}
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
	req := message(subjectGet, nil, hOrder, c.ord.id, hExec, c.ord.exec, hSlot, c.ord.slot, hParent, o.name.Parent, hChild, o.name.Child)
	m, err := n.nc.RequestMsgWithContext(n.ctx, req)
	if err != nil {
		n.check()
		return fmt.Errorf("orders: requesting order %d's child %d: %w", o.name.Parent, o.name.Child, err)
	}
	if m.Header.Get(hStale) != "" || m.Header.Get(hStop) != "" {
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
