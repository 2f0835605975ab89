package orders

import (
	"errors"
	"fmt"
	"strconv"
	"time"
)

// A run in several processes (Config.Procs) talks through a Transport's
// Conn (orders/cluster's: the coordinator embeds a NATS server and every
// worker process connects to it; docs/orders.md, "Several processes",
// says why NATS). A message's data is an order's encoded arguments or
// result, as they are; what the message is about travels in its
// headers. The coordinator places orders and watches the workers; the
// data goes between the workers (docs/orders.md, "Direct transfers"):
// an order's arguments stay on its maker's node until it starts, and go
// from there to the node it starts on; its result stays on the node that
// ran it and goes ahead to its maker's node, and a node holding it
// answers a request from any other node, as the coordinator asks it to.
// Values of at most ordersched.InlineBytes go with the coordinator's
// messages instead, and the coordinator keeps them. The makes and ends a
// worker sends the coordinator, the starts the coordinator sends a
// worker, and the starts and results a worker sends another leave in
// batches (outbox).
const (
	subjectHello          = "orders.hello"   // worker → coordinator, request: joining
	subjectMake           = "orders.c.make"  // an order made: Parent, Exec, Proc, Bytes; data: its arguments when small (else they stay on the maker's node)
	subjectGet            = "orders.c.get"   // request: Order, Exec, Slot want Parent's Child; answered when it may go on
	subjectDone           = "orders.c.done"  // an order ended: Order, Exec, Bytes, Node; data: its result when small or main's, or its failure
	subjectBeat           = "orders.c.beat"  // a worker (Proc) is alive
	subjectBack           = "orders.c.back"  // the answer to hBack: Order, Exec; Back "true" when the worker still held its start
	subjectBegan          = "orders.c.began" // an order started ahead (hQueued) began on core Slot, which it found free: Order, Exec
	subjectBatch          = "orders.c.batch" // makes and ends, batched (outbox)
	subjectsToCoordinator = "orders.c.*"     // all but hello, handled in the order they came
)

// The headers of the messages.
const (
	hOrder  = "Order"  // an order's id in the run
	hExec   = "Exec"   // the execution of the order the message is about: a lost worker's orders run again
	hProc   = "Proc"   // a procedure's name; in a beat, the worker's number
	hSlot   = "Slot"   // a core, as the coordinator's pool numbers them
	hParent = "Parent" // an order named by its maker: its maker's id...
	hChild  = "Child"  // ... and its place among the maker's children
	hBytes  = "Bytes"  // the size of an order's arguments or result (SizeOf)
	hFailed = "Failed" // the data is a gob-encoded wireFailure
	hStop   = "Stop"   // the run ended (Why: its error, if it failed)
	hWhy    = "Why"
	hStale  = "Stale" // the order's execution was lost: the worker stops running it
	// hResult marks a result the node that made it sends ahead to the
	// node of the order's maker (Parent, Child), which will most likely
	// request it: the simulator, too, moves a result from when it is
	// ready.
	hResult = "Result"
	// hPing is a round trip timed by ModeNetwork: the worker decodes the
	// data and sends it back as it came, or encoded again when hPing is
	// pingEncoded (a transfer each way, as between two workers).
	hPing       = "Ping"
	pingEncoded = "encoded"
	// hPingPeer asks a worker to time round trips of Bytes with the
	// worker at this inbox (ModeNetwork) and answer with their times,
	// or with Why.
	hPingPeer = "PingPeer"
	// hStream, with PingPeer, asks for streams of this many round trips
	// in flight at once instead (relayTimes).
	hStream = "Stream"
	// hCPU asks a worker for its process's CPU time so far and its
	// computer's name (ModeNetwork, probeRuntime): it answers with a
	// workerCPU, or with Why.
	hCPU = "CPU"
	// In a start: hAhead is the inbox of the maker's node, where the
	// result goes once made (none when it is the node the order runs
	// on), hNode that node's number, which the end gives back (the
	// coordinator then knows the result is there too); hLocal says the
	// arguments are on the node already, hTo (to the node holding
	// them) that the start goes on to that inbox with them.
	hAhead = "Ahead"
	hNode  = "Node"
	hLocal = "Local"
	hTo    = "To"
	// hFetch asks a node holding the result of Parent's Child to answer
	// a Get with it (to hReply, going on on Slot), marked hResult, or
	// with hMissing when it is not there. An answer without the result
	// says it is on the requester's node, or on its way there; hAgain
	// asks the requester to ask again.
	hFetch   = "Fetch"
	hReply   = "Reply"
	hMissing = "Missing"
	hAgain   = "Again"
	// hQueued marks a start sent ahead (Config.Ahead): its core is busy,
	// and the worker starts it once that core frees, at the end of its
	// order (whose end names it, hNext: "order/exec"), or at the
	// coordinator's hRelease of the core (Slot: its order waits for a
	// result; a message on subjectBegan names it), or at once when it
	// finds the core free (subjectBegan too).
	hQueued  = "Queued"
	hNext    = "Next"
	hRelease = "Release"
	// hBack asks a worker for the start of Order (Exec) it holds for
	// core Slot, for another core with nothing to run: it answers on
	// subjectBack, hBack "true" when it held it (and holds it no more).
	hBack = "Back"
)

// heartbeat is how often a worker says it is alive; a worker silent for
// lostAfter is lost, and its orders run again elsewhere.
const (
	heartbeat = 250 * time.Millisecond
	lostAfter = 3 * time.Second
)

// helloMsg is a worker joining: where to send it orders.
type helloMsg struct {
	Inbox string
	Host  string
	PID   int
}

// helloReply gives a worker its number and its cores.
type helloReply struct {
	Proc  int
	Cores int
	Err   string
}

// ref names an order as its maker does: the maker's id and the child's
// place among its children. A worker knows the orders it makes by it
// before the coordinator has numbered them, so that making an order
// needs no round trip; main is {0, 0}.
type ref struct {
	Parent int64
	Child  int
}

// message returns a message on subject with data and the headers kv
// (name, value pairs; values are strings or integers).
func message(subject string, data []byte, kv ...any) *Message {
	m := &Message{Subject: subject, Data: data, Header: make(map[string]string, len(kv)/2)}
	for i := 0; i+1 < len(kv); i += 2 {
		var v string
		switch x := kv[i+1].(type) {
		case string:
			v = x
		case int:
			v = strconv.Itoa(x)
		case int64:
			v = strconv.FormatInt(x, 10)
		case bool:
			v = strconv.FormatBool(x)
		default:
			panic(fmt.Sprintf("orders: a %T header", x))
		}
		m.Header[kv[i].(string)] = v
	}
	return m
}

// fields reads integer headers of a message, keeping the first error.
type fields struct {
	m   *Message
	err error
}

func (f *fields) int(key string) int64 {
	v, err := strconv.ParseInt(f.m.Header[key], 10, 64)
	if err != nil && f.err == nil {
		f.err = fmt.Errorf("orders: a %s message with %s=%q (expected a number)", f.m.Subject, key, f.m.Header[key])
	}
	return v
}

func (f *fields) str(key string) string { return f.m.Header[key] }

// ref reads the order's name: its maker and its place among the maker's
// children (hParent, hChild).
func (f *fields) ref() ref { return ref{Parent: f.int(hParent), Child: int(f.int(hChild))} }

// wireFailure is an *OrderError on its way between processes: its error
// travels as its text (and a panic's stack), its type stays behind.
type wireFailure struct {
	Order  int64
	Proc   string
	Msg    string
	Panic  bool
	Misuse bool
	Stack  []byte
}

// toWire returns the failure err, an *OrderError, as it travels.
func toWire(err error) *wireFailure {
	oe := (*OrderError)(nil)
	if !errors.As(err, &oe) {
		return &wireFailure{Msg: err.Error()}
	}
	f := &wireFailure{Order: oe.Order, Proc: oe.Proc, Msg: oe.Err.Error()}
	if p := (*PanicError)(nil); errors.As(oe.Err, &p) {
		f.Panic, f.Msg, f.Stack = true, fmt.Sprint(p.Value), p.Stack
	}
	if m := (*MisuseError)(nil); errors.As(oe.Err, &m) {
		f.Misuse, f.Msg = true, m.What
	}
	return f
}

// orderError returns the failure as an *OrderError.
func (f *wireFailure) orderError() *OrderError {
	var err error
	switch {
	case f.Panic:
		err = &PanicError{Value: f.Msg, Stack: f.Stack}
	case f.Misuse:
		err = &MisuseError{What: f.Msg}
	default:
		err = errors.New(f.Msg)
	}
	return &OrderError{Order: f.Order, Proc: f.Proc, Err: err}
}

// outcome returns the data and headers of an order's result, or of its
// failure f.
func outcome(result []byte, f *wireFailure) ([]byte, []any) {
	if f == nil {
		return result, nil
	}
	b, err := encode1(*f)
	if err != nil {
		b, _ = encode1(wireFailure{Order: f.Order, Proc: f.Proc, Msg: f.Msg})
	}
	return b, []any{hFailed, true}
}

// failureOf returns the failure a message carries, nil when it carries a
// result.
func failureOf(m *Message) (*wireFailure, error) {
	if m.Header[hFailed] == "" {
		return nil, nil
	}
	f, err := decode1[wireFailure](m.Data)
	return &f, err
}

// respond sends r to the Reply subject of request m.
func respond(c Conn, m *Message, r *Message) error {
	r.Subject = m.Reply
	return c.Publish(r)
}
