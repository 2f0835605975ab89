package ordersim

import (
	"errors"
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/presage-dvm/presage/orders/ordersched"
	"github.com/presage-dvm/presage/sim/internal/chunked"
	"github.com/presage-dvm/presage/sim/internal/idtable"
	"github.com/presage-dvm/presage/sim/internal/requeststore"
	"github.com/presage-dvm/presage/sim/machine"
	"github.com/presage-dvm/presage/sim/ordertrace"
)

// engine is one simulation.
type engine struct {
	trace *Prepared
	src   ordertrace.Source
	scan  ordertrace.Scanner // src, when it can reuse line
	line  ordertrace.Order
	cl    Cluster
	opt   Options
	sched Scheduler
	// runtime is the trace's runtime costs, charged on the cores, and
	// slow its slowdown by the orders running at once, nil for none.
	// after is the cluster's (Cluster.OrderCost, WaitCost), charged on a
	// core once an order leaves it (occupy) instead.
	runtime RuntimeCosts
	after   RuntimeCosts
	slow    []float64
	running int                 // orders running on every node
	cores   [][]int32           // with slow: the orders running on each node
	steps   chunked.Array[step] // with slow: beside lives, each running order's step
	path    bool
	track   bool // keep the schedules (times) for OnOrder
	named   bool // number the orders' procedures: for the path, the schedules or the sums

	power  []float64
	nodes  []node
	free   bitset // nodes with a free core
	vacant bitset // nodes with a free core and no suspended order
	dirty  bitset // nodes whose queues may feed a free core
	loads  *loads // LeastLoaded, Locality

	global    fifo    // FIFO's queue of new orders
	resumable fifo    // with Migrate, the orders ready to resume
	victims   []int32 // WorkStealing: nodes with new orders
	victimAt  []int32 // each node's index in victims, when it is one
	rng       ordersched.Rand

	ev  events
	now float64
	// net is the message-cost model between cl's nodes, kept apart so
	// that a transfer copies no Cluster, and freeNet whether it costs
	// nothing; hub is the coordinator's connection to its hub (Link.Hub),
	// which rounds of control take, conns each node's, which the data
	// sent straight between nodes takes, and emptyRelay how long a
	// message of no bytes holds a link (Link.RelayTime), which a batch
	// pays once.
	net        machine.Link
	freeNet    bool
	hub        machine.HubState
	conns      []machine.HubState
	emptyRelay float64

	lives    chunked.Arena[live]  // the orders held, named by their numbers
	requests requeststore.Store   // their requests
	links    links                // the critical path's stretches
	extras   chunked.Arena[extra] // of the orders with several results
	times    chunked.Array[times] // beside lives, for OnOrder
	procs    names                // the procedures, numbered
	sums     []procSum            // by procedure number, for ByProc

	entries  idtable.Table[int32] // orders read and not yet dropped, by id: their numbers in lives
	nextID   int64                // the id the next line must have
	eof      bool
	live     int // orders made and not yet dropped
	buffered int // orders read and not yet made
	peakLive int
	peakBuf  int

	orders    int64
	makespan  float64
	last      int32 // the link of the stretch that ended last
	nodesUsed int
	err       error
}

func newEngine(t *Prepared, src ordertrace.Source, cl Cluster, opt Options) *engine {
	e := &engine{
		trace: t, src: src, cl: cl, opt: opt, sched: opt.scheduler(), path: !opt.NoCriticalPath,
		track:  opt.OnOrder != nil,
		nodes:  make([]node, cl.Nodes),
		power:  make([]float64, cl.Nodes),
		free:   newBitset(cl.Nodes),
		vacant: newBitset(cl.Nodes),
		dirty:  newBitset(cl.Nodes),
		nextID: 1,
		rng:    ordersched.NewRand(opt.Seed),
	}
	e.net = machine.Cluster(cl).Link()
	e.freeNet = e.net.Free()
	_, e.emptyRelay = e.net.RelayTime(0)
	if cl.Hub {
		e.conns = make([]machine.HubState, cl.Nodes)
	}
	e.scan, _ = src.(ordertrace.Scanner)
	for i := range e.nodes {
		e.nodes[i].cores = cl.cores()
		e.power[i] = cl.power(i)
		e.free.set(i, true)
		e.vacant.set(i, true)
	}
	e.named = e.path || e.track || opt.ByProc
	if e.sched == WorkStealing {
		e.victimAt = make([]int32, cl.Nodes)
	}
	if e.sched == LeastLoaded || e.sched == Locality {
		e.loads = newLoads(cl.Nodes)
	}
	return e
}

func (e *engine) run() error {
	if err := e.readNext(); err != nil {
		return err
	}
	mi := e.entries.Get(1)
	if mi == 0 || e.lives.At(mi).state != pending {
		return errors.New("ordersim: the trace has no order (expected the main order, id 1)")
	}
	main := e.lives.At(mi)
	e.buffered--
	e.place(main, nil, 0)
	for e.err == nil {
		if e.ev.len() > 0 && e.ev.h[0].t <= e.now {
			e.handle(e.ev.pop())
			continue
		}
		if e.dispatch() {
			continue
		}
		if e.ev.len() == 0 {
			break
		}
		e.now = e.ev.h[0].t
	}
	if e.err != nil {
		return e.err
	}
	return e.checkDone()
}

func (e *engine) handle(ev event) {
	if ev.kind == evFreed {
		e.freed(int32(ev.idx))
		return
	}
	l := e.lives.At(ev.idx)
	switch ev.kind {
	case evStep:
		if e.slow != nil {
			s := e.stepOf(ev.idx)
			if s.seq != ev.seq {
				return // re-timed since
			}
			s.rate = 0
		}
		e.advance(l)
	case evStart:
		n := &e.nodes[l.node]
		n.account(e.now)
		n.xferring--
		e.begin(l)
	case evArrive:
		e.nodes[l.node].local.push(l)
		e.markDirty(l.node)
	case evResume:
		l.state = resumable
		if !e.opt.Pin {
			e.resumable.push(l)
		} else {
			e.nodes[l.node].resume.push(l)
			e.aheadBack(l.node)
			e.markDirty(l.node)
		}
	}
}

// readNext reads the next line and files it with its parent's children
// to make.
func (e *engine) readNext() error {
	o, err := e.next()
	if err == io.EOF {
		e.eof = true
		return nil
	}
	if err != nil {
		return err
	}
	if o.ID != e.nextID {
		return fmt.Errorf("ordersim: order %d where order %d was expected (ids count up from 1 in creation order)", o.ID, e.nextID)
	}
	if o.ID > math.MaxUint32 {
		return fmt.Errorf("ordersim: order %d: more orders than the simulator numbers (expected at most %d)", o.ID, uint32(math.MaxUint32))
	}
	e.nextID++
	if o.ID%ProgressEvery == 0 {
		if err := e.stopped(); err != nil {
			return err
		}
	}
	if len(o.Results) == 0 {
		return fmt.Errorf("ordersim: order %d provides no result (expected at least one)", o.ID)
	}
	var l *live
	if i := e.entries.Get(o.ID); i != 0 {
		l = e.lives.At(i)
		if err := e.checkRequested(l, o); err != nil {
			return err
		}
	} else {
		l = e.newLive(o.ID)
	}
	e.fileLine(l, o)
	e.buffered++
	e.peakBuf = max(e.peakBuf, e.buffered)
	if o.ID == 1 {
		if o.Parent != 0 {
			return fmt.Errorf("ordersim: order 1 has parent %d (expected 0: order 1 is main)", o.Parent)
		}
		return nil
	}
	return e.fileKid(l, o.Parent)
}

// next returns the next line: into the engine's own Order when the
// source can reuse it (fileLine keeps nothing of a line but a list of
// requests the requeststore.Store keeps as it is, which the line then leaves
// to the store).
func (e *engine) next() (*ordertrace.Order, error) {
	if e.scan == nil {
		return e.src.Next()
	}
	if requeststore.Keeps(e.line.Requests) {
		e.line.Requests = nil
	}
	return &e.line, e.scan.Scan(&e.line)
}

// fileLine copies into l what the simulation needs of its line o.
func (e *engine) fileLine(l *live, o *ordertrace.Order) {
	l.state, l.node = pending, -1
	l.madeAt, l.duration, l.argsOrWait = o.MadeAt, o.Duration, uint64(o.ArgBytes)
	if e.named {
		l.proc = e.procs.number(o.Proc)
	}
	if t := e.timesOf(l); t != nil {
		t.parent = o.Parent
	}
	e.setRequests(l, o.Requests)
	if len(o.Results) == 1 {
		l.res0 = o.Results[0]
		return
	}
	i, x := e.extras.Alloc()
	x.results = append(x.results, o.Results...)
	if e.path {
		x.prov = make([]int32, len(o.Results))
	}
	l.res0, l.flags = ordertrace.Result{Bytes: int64(i)}, l.flags|multi
}

// fileKid appends l to the children to make of its parent.
func (e *engine) fileKid(l *live, parent int64) error {
	if parent <= 0 || parent >= int64(l.id) {
		return fmt.Errorf("ordersim: order %d has parent %d (expected an earlier order)", l.id, parent)
	}
	pi := e.entries.Get(parent)
	if pi == 0 || e.lives.At(pi).state == finished {
		return fmt.Errorf("ordersim: order %d is made by order %d, which has already finished (expected the same trace on every read)", l.id, parent)
	}
	p := e.lives.At(pi)
	switch {
	case l.madeAt < p.own && p.state >= running:
		return fmt.Errorf("ordersim: order %d is made at %v of order %d, which is already at %v (expected siblings in order of making)", l.id, l.madeAt, parent, p.own)
	case l.madeAt > p.duration:
		return fmt.Errorf("ordersim: order %d is made at %v, after its parent %d ends at %v", l.id, l.madeAt, parent, p.duration)
	}
	if p.lastKid != 0 {
		if s := e.lives.At(p.lastKid); s.state == pending && s.madeAt > l.madeAt {
			return fmt.Errorf("ordersim: order %d is made at %v, before its earlier sibling %d at %v (expected siblings in order of making)", l.id, l.madeAt, s.id, s.madeAt)
		}
	}
	if p.kidsLeft == 0 {
		return fmt.Errorf("ordersim: order %d is a child of order %d, which had all its children counted (expected the same trace on every read)", l.id, p.id)
	}
	p.kidsLeft--
	e.addKid(p, l)
	return nil
}

// newLive files a new entry for order id, with its counts.
func (e *engine) newLive(id int64) *live {
	i, l := e.lives.Alloc()
	*l = live{id: uint32(id), idx: i, node: -1, state: unread, kidsLeft: e.trace.counts.Kids(id), reqsLeft: e.trace.counts.Requests(id)}
	if t := e.timesOf(l); t != nil {
		*t = times{stretches: t.stretches[:0]}
	}
	e.entries.Set(id, i)
	return l
}

// checkRequested checks the line of an order requested before it was read.
func (e *engine) checkRequested(l *live, o *ordertrace.Order) error {
	for wi := l.waiters; wi != 0; {
		w := e.lives.At(wi)
		wi = w.nextWait
		if int(w.waitOn) >= len(o.Results) {
			return fmt.Errorf("ordersim: order %d requests result %d of order %d, which provides %d", w.id, w.waitOn, o.ID, len(o.Results))
		}
	}
	return nil
}

// checkDone reports orders that never finished: with no event left,
// they wait for each other.
func (e *engine) checkDone() error {
	if e.orders == e.trace.counts.Orders() {
		return nil
	}
	var stuck []string
	e.entries.Each(func(_ int64, i int32) {
		if l := e.lives.At(i); l.state == suspended && len(stuck) < 5 {
			stuck = append(stuck, fmt.Sprintf("order %d waits at %v", l.id, l.own))
		}
	})
	return fmt.Errorf("ordersim: deadlock: no event left and %d of %d orders unfinished (%s)",
		e.trace.counts.Orders()-e.orders, e.trace.counts.Orders(), strings.Join(stuck, "; "))
}

func (e *engine) result() *Result {
	r := &Result{Makespan: e.makespan, Orders: e.orders, Nodes: make([]NodeStats, len(e.nodes)),
		NodesUsed: e.nodesUsed, PeakLive: e.peakLive, PeakBuffered: e.peakBuf}
	for i := range e.nodes {
		n := &e.nodes[i]
		n.account(e.makespan)
		r.Nodes[i] = n.stats
		r.Total.add(n.stats)
	}
	var pathTime []float64
	if e.opt.ByProc && e.path {
		pathTime = make([]float64, len(e.procs.list))
	}
	if e.last != 0 {
		r.CriticalPath, r.PathSteps = e.links.steps(e.last, e.makespan, &e.procs, pathTime, e.opt.PathSteps)
	}
	if e.opt.ByProc {
		r.Procs = e.procStats(pathTime)
	}
	return r
}

func (e *engine) markDirty(n int32) { e.dirty.set(int(n), true) }

// stopped is Options.Stop's answer, nil without one.
func (e *engine) stopped() error {
	if e.opt.Stop == nil {
		return nil
	}
	return e.opt.Stop()
}

func (e *engine) fail(err error) {
	if e.err == nil {
		e.err = err
	}
}
