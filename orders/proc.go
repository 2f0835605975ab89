package orders

import (
	"fmt"
	"reflect"
)

// Procedure1 is a marked procedure of one argument: every call through
// Make is an order. Procedure2 and Procedure3 take more; several values
// may also travel in one struct.
type Procedure1[A, R any] struct {
	name string
	fn   func(*Ctx, A) (R, error)
}

// Procedure2 is a marked procedure of two arguments.
type Procedure2[A, B, R any] struct {
	name string
	fn   func(*Ctx, A, B) (R, error)
}

// Procedure3 is a marked procedure of three arguments.
type Procedure3[A, B, C, R any] struct {
	name string
	fn   func(*Ctx, A, B, C) (R, error)
}

// Proc marks fn as a procedure named name (the name orders carry in the
// trace). fn must not change anything but its own values: its arguments
// are passed by value, and it may run on another computer. An error it
// returns is its order's failure: the run stops, and Get returns it to
// the orders that request the order.
func Proc[A, R any](name string, fn func(*Ctx, A) (R, error)) *Procedure1[A, R] {
	p := &Procedure1[A, R]{name: name, fn: fn}
	p.register()
	return p
}

// register enters p in the registry of procedures that orders of other
// processes run (see travel.go).
func (p *Procedure1[A, R]) register() {
	register(p.name, func(args []byte) (bound, error) {
		d := newDecoder(args)
		a := take[A](d)
		d.done()
		return func(c *Ctx) ([]byte, int64, error) { return encodeResult(p.fn(c, a)) }, d.err
	}, reflect.TypeFor[A](), reflect.TypeFor[R]())
}

// encodeResult returns an order's result encoded, with its size, or its
// error.
func encodeResult[R any](r R, err error) ([]byte, int64, error) {
	if err != nil {
		return nil, 0, err
	}
	b, err := encode1(r)
	return b, sizeOf(r), err
}

// Recursive marks fn as a procedure named name that makes orders of
// itself: fn receives the procedure it defines, so that a package-level
// procedure needs no init function (Go forbids a variable's initializer
// to refer to the variable).
//
//	var fib = orders.Recursive("fib", func(fib *orders.Procedure1[int, int], c *orders.Ctx, n int) (int, error) {
//		... orders.Make(c, fib, n-1) ...
//	})
func Recursive[A, R any](name string, fn func(self *Procedure1[A, R], c *Ctx, a A) (R, error)) *Procedure1[A, R] {
	p := &Procedure1[A, R]{name: name}
	p.fn = func(c *Ctx, a A) (R, error) { return fn(p, c, a) }
	p.register()
	return p
}

// Proc2 marks a procedure of two arguments.
func Proc2[A, B, R any](name string, fn func(*Ctx, A, B) (R, error)) *Procedure2[A, B, R] {
	register(name, func(args []byte) (bound, error) {
		d := newDecoder(args)
		a, b := take[A](d), take[B](d)
		d.done()
		return func(c *Ctx) ([]byte, int64, error) { return encodeResult(fn(c, a, b)) }, d.err
	}, reflect.TypeFor[A](), reflect.TypeFor[B](), reflect.TypeFor[R]())
	return &Procedure2[A, B, R]{name: name, fn: fn}
}

// Proc3 marks a procedure of three arguments.
func Proc3[A, B, C, R any](name string, fn func(*Ctx, A, B, C) (R, error)) *Procedure3[A, B, C, R] {
	register(name, func(args []byte) (bound, error) {
		d := newDecoder(args)
		a, b, x := take[A](d), take[B](d), take[C](d)
		d.done()
		return func(c *Ctx) ([]byte, int64, error) { return encodeResult(fn(c, a, b, x)) }, d.err
	}, reflect.TypeFor[A](), reflect.TypeFor[B](), reflect.TypeFor[C](), reflect.TypeFor[R]())
	return &Procedure3[A, B, C, R]{name: name, fn: fn}
}

// Handle is the result of an order, to be requested with Get, or a value
// one has already (Ready).
type Handle[R any] struct {
	o      *order // nil for a Ready value
	result R
	// decoded is set once result holds the order's result as it came
	// from another process (order.wire).
	decoded bool
}

// Ready returns a handle whose result is v: for passing a value one has
// where a procedure takes a handle. Get returns v at once and requests
// nothing.
func Ready[R any](v R) *Handle[R] { return &Handle[R]{result: v} }

// Bytes is what the handle adds to the arguments of an order it is
// passed to: 0 for an order's handle, a reference whose result moves only
// when requested; the value's size for a Ready handle, which travels with
// the arguments.
func (h *Handle[R]) Bytes() int64 {
	if h == nil {
		return 0 // no handle: nothing travels
	}
	if h.o == nil {
		return sizeOf(h.result)
	}
	return 0
}

// Get requests the order's result from the order c runs, waiting until
// it is ready, and returns it, or the order's failure (an *OrderError).
// Only the order that made h and the orders it passes h to may request it.
func (h *Handle[R]) Get(c *Ctx) (R, error) {
	// No check of the run's context first: a failed order's requester
	// gets its error even though the failure cancelled the run.
	if h.o == nil {
		return h.result, nil
	}
	if c.ord.block != "" {
		misuse("Get of order %d (%s) inside block %q (a block requests nothing)", h.o.id, h.o.proc, c.ord.block)
	}
	if err := c.rt.get(c, h.o); err != nil {
		var zero R
		return zero, err
	}
	if err := failure(h.o); err != nil {
		var zero R
		return zero, err
	}
	if h.o.remote {
		return h.fromWire()
	}
	if c.run.codec && !h.decoded {
		// Recording with Config.Codec: decode the result as a worker
		// process does, once per handle, for the time it takes; the
		// value is the one h holds already.
		if _, err := decode1[R](h.o.wire); err != nil {
			return h.result, err
		}
		h.decoded = true
	}
	if c.run.checkValues && fingerprint(h.result) != h.o.resultPrint {
		misuse("the result of order %d (%s) changed after it ended: an order wrote memory another shares (results go by value: copy before writing)", h.o.id, h.o.proc)
	}
	return h.result, nil
}

func (*Handle[R]) isHandle() {}

// fromWire returns the result of h's order, which ran in another process.
func (h *Handle[R]) fromWire() (R, error) {
	if !h.decoded {
		r, err := decode1[R](h.o.wireResult())
		if err != nil {
			return r, err
		}
		h.result, h.decoded = r, true
	}
	return h.result, nil
}

func (*Handle[R]) resultType() reflect.Type { return reflect.TypeFor[R]() }

// handleWire is a handle on its way to another process: the name of its
// order, or a Ready handle's value.
type handleWire struct {
	Order ref
	Ready bool
	Value []byte
}

// GobEncode encodes the handle for an order's arguments going to another
// process (Config.Procs): an order's handle travels as a reference to
// the order, whose result moves only when requested; a Ready one with
// its value.
func (h *Handle[R]) GobEncode() ([]byte, error) {
	if h.o == nil {
		v, err := encode1(h.result)
		if err != nil {
			return nil, err
		}
		return encode1(handleWire{Ready: true, Value: v})
	}
	if !h.o.remote && h.o.rec == nil { // recorded with Config.Codec, it is encoded only to be timed
		return nil, fmt.Errorf("orders: the handle of order %d (%s) travels only in a run in several processes", h.o.id, h.o.proc)
	}
	return encode1(handleWire{Order: h.o.name})
}

// GobDecode decodes a handle GobEncode encoded, in the process the order
// it is passed to runs in.
func (h *Handle[R]) GobDecode(b []byte) error {
	w, err := decode1[handleWire](b)
	if err != nil {
		return err
	}
	if w.Ready {
		h.result, err = decode1[R](w.Value)
		return err
	}
	h.o = remoteOrder(w.Order)
	return nil
}

// Make makes an order of p on a, from the order c runs, and returns its
// handle at once.
func Make[A, R any](c *Ctx, p *Procedure1[A, R], a A) *Handle[R] {
	c.pauseOwn() // sizing and checking the arguments is the runtime's work
	defer c.resumeOwn()
	var args func() []any // only in checking mode: allocates
	if c.run.checkValues {
		args = func() []any { return []any{a} }
	}
	var encode func() ([]byte, error) // only in a worker process, or recording with Config.Codec: allocates
	if c.remote() || c.run.codec {
		encode = func() ([]byte, error) { return encode1(a) }
	}
	return makeOrder(c, p.name, sizeOf(a), args, encode, call1[A, R]{p.fn, a})
}

// Make2 makes an order of a procedure of two arguments.
func Make2[A, B, R any](c *Ctx, p *Procedure2[A, B, R], a A, b B) *Handle[R] {
	c.pauseOwn() // sizing and checking the arguments is the runtime's work
	defer c.resumeOwn()
	var args func() []any
	if c.run.checkValues {
		args = func() []any { return []any{a, b} }
	}
	var encode func() ([]byte, error)
	if c.remote() || c.run.codec {
		encode = func() ([]byte, error) { return encode2(a, b) }
	}
	return makeOrder(c, p.name, sizeOf(a)+sizeOf(b), args, encode, call2[A, B, R]{p.fn, a, b})
}

// Make3 makes an order of a procedure of three arguments.
func Make3[A, B, C, R any](c *Ctx, p *Procedure3[A, B, C, R], a A, b B, d C) *Handle[R] {
	c.pauseOwn() // sizing and checking the arguments is the runtime's work
	defer c.resumeOwn()
	var args func() []any
	if c.run.checkValues {
		args = func() []any { return []any{a, b, d} }
	}
	var encode func() ([]byte, error)
	if c.remote() || c.run.codec {
		encode = func() ([]byte, error) { return encode3(a, b, d) }
	}
	return makeOrder(c, p.name, sizeOf(a)+sizeOf(b)+sizeOf(d), args, encode, call3[A, B, C, R]{p.fn, a, b, d})
}

// makeOrder makes an order running call, whose arguments weigh argBytes
// and encode encodes (for a run in several processes); in checking mode
// args gives them, to fingerprint (see Config.Check).
func makeOrder[R any, C caller[R]](c *Ctx, name string, argBytes int64, args func() []any, encode func() ([]byte, error), call C) *Handle[R] {
	c.run.check()
	if c.ord.block != "" {
		misuse("Make of %s inside block %q (a block makes no order)", name, c.ord.block)
	}
	var m *made[R, C]
	var room *runOrder
	if _, ok := c.rt.(*runMode); ok {
		mr := &madeToRun[R, C]{made: made[R, C]{call: call, args: args}}
		m, room = &mr.made, &mr.room
	} else {
		m = &made[R, C]{call: call, args: args}
	}
	if args != nil {
		m.argPrint = fingerprint(args()...)
	}
	m.h.o = c.rt.make(c, orderSpec{name: name, argBytes: argBytes, encode: encode, body: m, room: room})
	return &m.h
}

// caller is a procedure's call on its arguments, as Make made it.
type caller[R any] interface {
	call(c *Ctx) (R, error)
}

// call1, call2 and call3 call a procedure of one, two and three arguments
// on the arguments of its order. They are values, held in the order's
// made, so that making an order allocates no closure for its call.
type call1[A, R any] struct {
	fn func(*Ctx, A) (R, error)
	a  A
}

func (x call1[A, R]) call(c *Ctx) (R, error) { return x.fn(c, x.a) }

type call2[A, B, R any] struct {
	fn func(*Ctx, A, B) (R, error)
	a  A
	b  B
}

func (x call2[A, B, R]) call(c *Ctx) (R, error) { return x.fn(c, x.a, x.b) }

type call3[A, B, C, R any] struct {
	fn func(*Ctx, A, B, C) (R, error)
	a  A
	b  B
	d  C
}

func (x call3[A, B, C, R]) call(c *Ctx) (R, error) { return x.fn(c, x.a, x.b, x.d) }

// made is an order as Make made it: its handle, its call, and in
// checking mode its arguments and their fingerprint. It is the order's
// body (orderBody), so that the handle and everything the body needs
// take one allocation.
type made[R any, C caller[R]] struct {
	h        Handle[R]
	call     C
	args     func() []any
	argPrint uint64
}

// madeToRun is made with what run mode keeps of the order beside it, so
// that an order of run mode costs one allocation, as a goroutine does.
type madeToRun[R any, C caller[R]] struct {
	made[R, C]
	room runOrder
}

// run runs the order's call and keeps its result in the handle.
func (m *made[R, C]) run(c *Ctx) (int64, error) {
	r, err := m.call.call(c)
	if c.run.codec && err == nil {
		c.ord.wire, err = encode1(r) // as a worker process sends it
	}
	c.pauseOwn() // the order's work ends here: what follows is the runtime's
	if m.args != nil {
		if fingerprint(m.args()...) != m.argPrint {
			misuse("its arguments changed between its Make and its end: an order wrote memory another shares (arguments go by value: pass copies)")
		}
		c.ord.resultPrint = fingerprint(r)
	}
	m.h.result = r
	return sizeOf(r), err
}
