package orders

import (
	"context"
	"sync/atomic"
	"time"
)

// Ctx is what an order's code receives: its link to the runtime. It
// belongs to one order and must not be used by another.
type Ctx struct {
	rt  runtime
	ord *order
	run *runState
}

// Context returns the run's context: done when Main's caller cancels it
// or its deadline passes, or when an order has failed. An order that does
// long work between its Makes, Gets and Blocks checks it to stop early;
// at those calls the runtime checks it itself.
func (c *Ctx) Context() context.Context { return c.run.ctx }

// Cost is a block's cost estimate: its parameters α and f(α), the
// asymptotic time up to a constant (n³ for an n×n matrix product).
type Cost struct {
	Alpha []float64
	F     float64
}

// Block runs a marked block of the order: real in run and calibrate
// modes, quick in record mode, where the block is priced at c̄·F. A block
// makes no order and requests nothing, and blocks do not nest; quick must
// produce whatever the rest of the program needs to run on, cheaply.
func (c *Ctx) Block(name string, cost Cost, real, quick func()) {
	c.run.check()
	if c.ord.block != "" {
		misuse("block %q inside block %q (blocks do not nest)", name, c.ord.block)
	}
	c.ord.block = name
	defer func() { c.ord.block = "" }()
	c.rt.block(c, name, cost, real, quick)
}

// Compute runs a marked block that computes a value, as Block does, and
// returns it: real's in run and calibrate modes, quick's in record mode.
func Compute[T any](c *Ctx, name string, cost Cost, real, quick func() T) T {
	var v T
	c.Block(name, cost, func() { v = real() }, func() { v = quick() })
	return v
}

// remote reports whether the order c runs runs in a worker process,
// whose orders travel (encoded) to the others.
func (c *Ctx) remote() bool {
	_, ok := c.rt.(*node)
	return ok
}

// orderSpec is an order to make: its procedure's name, the size of its
// arguments, its body (which returns the size of its result and its
// error) and its arguments' encoder, for a run in several processes.
type orderSpec struct {
	name     string
	argBytes int64
	body     orderBody
	encode   func() ([]byte, error) // set in a worker process only
	// room is where run mode puts the order, allocated with its body
	// (madeToRun); nil, it allocates it.
	room *runOrder
}

// orderBody is an order's code: run runs it on the order c runs and
// returns the size of its result and its error. An interface, not a
// function, so that the value Make allocates for the order's handle is
// its body too (made).
type orderBody interface {
	run(c *Ctx) (int64, error)
}

// bodyFunc is an order's body given as a function.
type bodyFunc func(*Ctx) (int64, error)

func (f bodyFunc) run(c *Ctx) (int64, error) { return f(c) }

// runtime is one of the three modes, or a worker process of a run in
// several processes.
type runtime interface {
	make(parent *Ctx, spec orderSpec) *order
	// get returns when o has ended, its result available to the order c
	// runs, or with the run's deadlock.
	get(c *Ctx, o *order) error
	block(c *Ctx, name string, cost Cost, real, quick func())
}

// order is what every mode knows of an order.
type order struct {
	id    int64  // in the order of making (record mode: of recording)
	proc  string // the procedure
	block string // the block the order is in, "" outside blocks
	// state is, in run mode, orderRunning, orderWaited once an order
	// waits for it (set under runMode.mu), orderEnded once its result is
	// ready.
	state atomic.Int32
	// resume is, in run mode, the task by which it asks for a worker
	// again after a suspension in Get, made at its first; waitsFor is
	// the order it waits for while suspended, and waitAt its place in
	// runMode.waiting (both under runMode.mu).
	resume   *task
	waitsFor *order
	waitAt   int
	// waiters are the orders that waited for it (run mode, under
	// runMode.mu), so that its end finds them without a search; they
	// start in firstWaiter, for most orders have one waiter at most.
	waiters     []*order
	firstWaiter [1]*order
	err         any            // how it ended: nil, abandoned, or its failure (*OrderError)
	rec         *recorded      // record mode
	slot        int            // run mode: the worker it runs on
	run         *orderSchedule // run mode, when the measurement is written
	// resultPrint is the fingerprint of its result when it ended, in
	// checking mode.
	resultPrint uint64
	// remote is set for an order of a run in several processes, known
	// to the process by its id: its result comes encoded (wire).
	remote bool
	name   ref    // remote: the order's name, as its maker knows it
	exec   int    // remote: the execution of the order running here (a lost worker's orders run again)
	made   int    // remote: the children it made so far
	wire   []byte // remote: its encoded result, once here
}

// The states of an order in run mode (order.state).
const (
	orderRunning int32 = iota // made, not ended, nobody waits for it
	orderWaited               // an order waits for it
	orderEnded
)

// pauseOwn stops, in record mode, the clock of the own time of the order
// c runs until resumeOwn: what runs meanwhile is the runtime's work
// (sizing arguments and results, fingerprints, making an order), which
// the trace must not count as the program's, for the simulator charges
// the runtime's costs apart (OrderBlock, WaitBlock).
func (c *Ctx) pauseOwn() {
	if r := c.ord.rec; r != nil {
		r.clock.stop()
	}
}

// resumeOwn starts the clock pauseOwn stopped.
func (c *Ctx) resumeOwn() {
	if r := c.ord.rec; r != nil {
		r.clock.start()
	}
}

// stopwatch measures the own time of an order's unmarked code, in the
// trace's unit: seconds times unit (1, or 1/the reference's time).
type stopwatch struct {
	own   float64 // time counted so far
	unit  float64
	since time.Time
	on    bool
}

func (s *stopwatch) start() { s.since, s.on = time.Now(), true }

// stop adds the time since start and returns the own time.
func (s *stopwatch) stop() float64 {
	if s.on {
		s.own += time.Since(s.since).Seconds() * s.unit
		s.on = false
	}
	return s.own
}
