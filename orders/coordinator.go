package orders

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/presage-dvm/presage/orders/measured"
)

// coordinator runs a program's orders on worker processes, the nodes of
// the cluster: it numbers every order, places it on a core by the pool's
// rule (the simulator's, every node's cores pinned to it: a suspended
// order is a goroutine of its process and resumes there), knows which
// nodes hold its arguments and its result, and runs again the orders of
// a node it loses. The data itself goes between the nodes (wire.go): the
// coordinator holds main's arguments and result, and the small ones
// (ordersched.InlineBytes).
type coordinator struct {
	conn   Conn
	pool   *pool
	cores  int // per node
	stderr io.Writer

	mu      sync.Mutex
	nodes   []*member
	orders  map[int64]*tracked
	byName  map[ref]*tracked
	count   int64
	active  int // orders placed or running, not waiting: 0 with waits is a deadlock
	waiting int
	// suspended counts the orders' suspensions since the session began:
	// network mode's probe of the runtime's costs divides by it.
	suspended int
	main      *tracked
	mainDone  chan struct{}
	start     time.Time
	schedule  bool
	remade    int // ended orders made again, their results lost with their nodes
	runState
}

// member is a node of the run: a worker process.
type member struct {
	index    int
	inbox    string
	host     string
	pid      int
	slots    []int   // its cores, as the pool's workers
	out      *outbox // the orders it starts, the results sent ahead to it
	alive    bool
	lastBeat time.Time
}

// tracked is what the coordinator knows of an order.
type tracked struct {
	id, parent int64
	child      int // its place among its parent's children
	proc       string
	args       []byte // main's, and small ones (ordersched.InlineBytes): the others are on nodes (argsAt)
	exec       int    // executions started, and lost ones: a message of another is stale
	slot       int    // the core it runs or waits on, -1 before it starts
	done       bool
	result     []byte // main's, and small ones
	fail       *wireFailure
	// argsAt are the nodes holding its arguments: its maker's, and those
	// it started on; at, once it ended, those holding its result: its
	// own and its maker's. A lost node leaves both.
	argsAt, at []int
	// via is the node its current start went through with its
	// arguments, or the answer to its request with the result it
	// requested (to viaReply), -1 for none; heard is whether a message of
	// its current execution came since. A start lost with the node it
	// went through is started again; an answer, given again.
	via      int
	viaReply string
	heard    bool
	// needArgs is set while it waits for its maker to make it again:
	// every node holding its arguments was lost.
	needArgs bool
	// kids are the orders it made, by place: an order run again after
	// its node was lost makes them again, and gets the same orders;
	// made counts those its current execution made.
	kids []int64
	made int
	// waitsFor is the order whose result it waits for (0: none), reply
	// where to send it; waiters are the orders waiting for its result.
	waitsFor int64
	reply    string
	waiters  []*tracked
	run      *orderSchedule
	// aheadOn is its ticket while it is started ahead on a busy core
	// (pool.ahead) and the coordinator may still ask it back; backVia,
	// the node the last question asking it back went through (nil:
	// straight to its node), which lose asks again when that node is
	// lost.
	aheadOn *ticket
	backVia *member
}

// node returns the member whose core slot is.
func (c *coordinator) node(slot int) *member { return c.nodes[slot/c.cores] }

// subscribe handles the workers' messages to the coordinator, one at a
// time in the order they came (an order's making comes before any
// request naming it); a message that cannot be read ends the run.
func (c *coordinator) subscribe() error {
	handlers := map[string]func(*Message) error{
		subjectMake:  c.onMake,
		subjectGet:   c.onGet,
		subjectDone:  c.onDone,
		subjectBeat:  c.onBeat,
		subjectBack:  c.onBack,
		subjectBegan: c.onBegan,
	}
	handle := func(m *Message) {
		h := handlers[m.Subject]
		if h == nil {
			return
		}
		if err := h(m); err != nil {
			c.fail(fmt.Errorf("orders: coordinator: %s: %w", m.Subject, err))
		}
	}
	_, err := c.conn.Subscribe(subjectsToCoordinator, func(m *Message) {
		if err := unbatched(m, handle); err != nil {
			c.fail(err)
		}
	})
	return err
}

// place files t, made by an order on core from (-1: the coordinator), with
// the pool, and starts it when the pool gives it a core (dispatched).
// The caller holds c.mu.
func (c *coordinator) place(t *tracked, from int) {
	tk := c.pool.place(from)
	tk.order = t
	tk.then = func(slot int) {
		if slot >= 0 {
			c.startOn(t, tk, slot)
		}
	}
}

// dispatched acts on the pool's decisions taken since its last call:
// it starts the orders given a core and answers the requesters resumed.
// The coordinator takes them in the goroutine that handles a message,
// once the message is handled, holding c.mu: no goroutine waits for a
// core. The caller holds c.mu.
func (c *coordinator) dispatched() {
	for {
		given, reclaims := c.pool.takeGiven(), c.pool.takeReclaims()
		if len(given) == 0 && len(reclaims) == 0 {
			return
		}
		for _, t := range given {
			t.then(t.worker)
		}
		for _, tk := range reclaims {
			c.askBack(tk)
		}
	}
}

// askBack asks the node an order was started ahead on for it back, for a
// core left with nothing to run: the node answers (onBack) whether it
// still held it.
func (c *coordinator) askBack(tk *ticket) {
	t := tk.order
	if t.aheadOn != tk || t.slot < 0 {
		return // run again elsewhere: the pool forgot it with its node
	}
	n := c.node(t.slot)
	m := message(n.inbox, nil, hBack, true, hOrder, t.id, hExec, t.exec, hSlot, t.slot)
	t.backVia = nil
	if t.via < 0 || t.heard || !c.nodes[t.via].alive {
		n.out.put(m)
		return
	}
	// Its start went through the node holding its arguments, and may not
	// have arrived: so does the question, which then comes after it.
	t.backVia = c.nodes[t.via]
	m.Header[hTo], m.Subject = n.inbox, t.backVia.inbox
	t.backVia.out.put(m)
}

// onBack is a node's answer to askBack: the order is back (hBack "true",
// it had not started), and goes to a core by the pool's rule, or it
// stays where it was started.
func (c *coordinator) onBack(m *Message) error {
	f := fields{m: m}
	id, exec := f.int(hOrder), int(f.int(hExec))
	if f.err != nil {
		return f.err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	defer c.dispatched()
	t := c.orders[id]
	if t == nil || t.exec != exec || t.aheadOn == nil {
		return nil // a lost execution's: the pool forgot it with its node
	}
	tk := t.aheadOn
	if m.Header[hBack] != "true" {
		if !c.pool.settle(tk) {
			t.aheadOn = nil
		}
		return nil
	}
	t.aheadOn, t.slot = nil, -1
	c.pool.takeBack(tk.worker, tk)
	return nil
}

// began acts on a node's word that it started order t (execution
// exec), started ahead on core slot: the core runs it, and its stretch
// there begins. The caller holds c.mu.
func (c *coordinator) began(id int64, exec, slot int) {
	t := c.orders[id]
	if t == nil || t.exec != exec || t.aheadOn == nil {
		return // a lost execution's
	}
	tk := t.aheadOn
	c.pool.begin(slot, tk)
	if !tk.reclaiming { // else the node's answer is still to come (onBack)
		t.aheadOn = nil
	}
	c.ran(t)
}

// execution names an execution of an order on a core.
type execution struct {
	id         int64
	exec, slot int
}

// nextOf returns the order an end says its core went on with (hNext,
// "order/exec", on core Slot), none (id 0) when it names none.
func nextOf(m *Message) (execution, error) {
	var e execution
	next := m.Header[hNext]
	if next == "" {
		return e, nil
	}
	if _, err := fmt.Sscanf(next, "%d/%d", &e.id, &e.exec); err != nil {
		return e, fmt.Errorf("the order started next %q: %w", next, err)
	}
	f := fields{m: m}
	e.slot = int(f.int(hSlot))
	return e, f.err
}

// onBegan is a node's word that it started an order given ahead (Order,
// Exec) on core Slot, which it found free or the coordinator released.
func (c *coordinator) onBegan(m *Message) error {
	f := fields{m: m}
	id, exec, slot := f.int(hOrder), int(f.int(hExec)), int(f.int(hSlot))
	if f.err != nil {
		return f.err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	defer c.dispatched()
	c.began(id, exec, slot)
	return nil
}

// startOn starts t on core slot, or places it again when that core's
// node was lost meanwhile. The start goes to the node, which holds
// t's arguments or gets main's with it, or through a node holding
// them, which sends it on with them; it names the maker's node, where
// t's result goes once made.
func (c *coordinator) startOn(t *tracked, tk *ticket, slot int) {
	n := c.node(slot)
	if !n.alive {
		c.place(t, -1)
		return
	}
	from := -1 // the node the arguments come from, -1 when they are on n or travel with the start
	if t.args == nil && !slices.Contains(t.argsAt, n.index) {
		if from = c.liveOf(t.argsAt); from < 0 {
			// Lost with their node since t was placed: its core goes back.
			if !tk.ahead || !c.pool.retract(slot, tk) {
				c.pool.finish(slot)
				c.pool.uncount(slot)
			}
			c.need(t)
			return
		}
	}
	t.slot, t.made, t.via, t.viaReply, t.heard = slot, 0, from, "", false
	t.exec++
	m := message(n.inbox, nil, hOrder, t.id, hExec, t.exec, hProc, t.proc, hSlot, slot, hParent, t.parent, hChild, t.child)
	if tk.ahead {
		// Its stretch begins when its node starts it (began).
		t.aheadOn = tk
		m.Header[hQueued] = "true"
	} else {
		c.ran(t)
	}
	if p := c.orders[t.parent]; p != nil && p.slot >= 0 && c.node(p.slot) != n && c.node(p.slot).alive {
		maker := c.node(p.slot)
		m.Header[hAhead], m.Header[hNode] = maker.inbox, strconv.Itoa(maker.index)
	}
	switch {
	case t.args != nil:
		m.Data = t.args
		n.out.put(m)
	case from < 0:
		m.Header[hLocal] = "true"
		n.out.put(m)
	default:
		m.Header[hTo] = n.inbox
		m.Subject = c.nodes[from].inbox
		c.nodes[from].out.put(m)
	}
}

// orNil returns data, nil when it is empty: a message that carries no
// value (an encoded value is never empty) may come with empty data,
// from a batch.
func orNil(data []byte) []byte {
	if len(data) == 0 {
		return nil
	}
	return data
}

// liveOf returns the first live node among nodes, -1 if none is.
func (c *coordinator) liveOf(nodes []int) int {
	for _, i := range nodes {
		if c.nodes[i].alive {
			return i
		}
	}
	return -1
}

// need has t run (again): placed now when a live node holds its
// arguments, else once its maker has made it again (a maker that ended
// runs again for it). The caller holds c.mu.
func (c *coordinator) need(t *tracked) {
	if t.args != nil || c.liveOf(t.argsAt) >= 0 {
		c.place(t, -1)
		return
	}
	t.needArgs = true
	if p := c.orders[t.parent]; p.done {
		c.again(p)
	}
	// Else its maker runs again already: its node, holding t's
	// arguments, was lost with the execution that made t.
}

// again runs t, which ended, again: no live node holds its result any
// more, and an order requests it (or needs it to make an order again).
// The caller holds c.mu.
func (c *coordinator) again(t *tracked) {
	t.done, t.at, t.result = false, nil, nil
	c.pool.uncount(t.slot)
	if t.run != nil {
		t.run.stretches = nil
	}
	t.slot = -1
	t.exec++ // its ended execution's messages are stale now
	c.active++
	c.remade++
	c.need(t)
}

func (c *coordinator) onMake(m *Message) error {
	f := fields{m: m}
	parentID, exec, proc := f.int(hParent), int(f.int(hExec)), f.str(hProc)
	if f.err != nil {
		return f.err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	defer c.dispatched()
	parent := c.orders[parentID]
	if parent == nil || parent.exec != exec {
		return nil // a lost execution's
	}
	parent.heard = true
	parent.made++
	from := c.node(parent.slot).index
	if parent.made <= len(parent.kids) {
		// Run again: its children are made already, and their arguments
		// are on its node now too.
		t := c.orders[parent.kids[parent.made-1]]
		if !slices.Contains(t.argsAt, from) {
			t.argsAt = append(t.argsAt, from)
		}
		if t.needArgs {
			t.needArgs = false
			c.place(t, parent.slot)
		}
		return nil
	}
	t := c.newOrder(parent, proc, orNil(m.Data)) // small arguments come with the making
	t.argsAt = []int{from}
	c.place(t, parent.slot)
	return nil
}

// newOrder files a new order of proc made by parent (nil for main).
// The caller holds c.mu.
func (c *coordinator) newOrder(parent *tracked, proc string, args []byte) *tracked {
	c.count++
	t := &tracked{id: c.count, proc: proc, args: args, slot: -1, via: -1}
	if c.schedule {
		t.run = &orderSchedule{made: c.since()}
	}
	if parent != nil {
		t.parent, t.child = parent.id, len(parent.kids)
		parent.kids = append(parent.kids, t.id)
		c.byName[ref{Parent: parent.id, Child: t.child}] = t
	}
	c.orders[t.id] = t
	c.active++
	return t
}

func (c *coordinator) onGet(m *Message) error {
	f := fields{m: m}
	id, exec, slot := f.int(hOrder), int(f.int(hExec)), int(f.int(hSlot))
	name := f.ref()
	if f.err != nil {
		return f.err
	}
	c.mu.Lock()
	r, want := c.orders[id], c.byName[name]
	if r != nil && r.exec == exec {
		r.heard = true
	}
	switch {
	case r == nil || r.exec != exec:
		c.mu.Unlock()
		return respond(c.conn, m, message("", nil, hStale, true))
	case want == nil:
		c.mu.Unlock()
		data, failed := outcome(nil, &wireFailure{Order: r.id, Proc: r.proc, Misuse: true,
			Msg: fmt.Sprintf("Get of child %d of order %d, which it never made", name.Child, name.Parent)})
		return respond(c.conn, m, message("", data, append(failed, hSlot, slot)...))
	case want.done && (want.fail != nil || want.result != nil || c.liveOf(want.at) >= 0):
		// The requester keeps its core: the result is there, or comes
		// from a node holding it.
		c.answer(r, want, m.Reply, slot)
		c.mu.Unlock()
		return nil
	case want.done:
		c.again(want) // no live node holds its result: it is made again
	}
	if c.pool.suspend(r.slot) {
		// Orders started ahead wait for the core: its node starts one.
		n := c.node(r.slot)
		n.out.put(message(n.inbox, nil, hRelease, true, hSlot, r.slot))
	}
	c.stopped(r)
	r.waitsFor, r.reply = want.id, m.Reply
	want.waiters = append(want.waiters, r)
	c.active--
	c.waiting++
	c.suspended++
	c.checkDeadlock()
	c.dispatched()
	c.mu.Unlock()
	return nil
}

func (c *coordinator) onDone(m *Message) error {
	f := fields{m: m}
	id, exec := f.int(hOrder), int(f.int(hExec))
	fail, err := failureOf(m)
	if err = errors.Join(f.err, err); err != nil {
		return err
	}
	next, err := nextOf(m)
	if err != nil {
		return err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	defer c.dispatched()
	t := c.orders[id]
	if t == nil || t.exec != exec || t.done {
		// A lost execution's, whose core went on with an order started
		// ahead all the same (an execution is lost with the node its
		// start went through, and may run on).
		if next.id != 0 {
			c.began(next.id, next.exec, next.slot)
		}
		return nil
	}
	t.done, t.fail = true, fail
	if fail == nil {
		t.result = orNil(m.Data) // main's, or a small one
	}
	ran := c.node(t.slot).index
	t.at = []int{ran}
	if !slices.Contains(t.argsAt, ran) {
		t.argsAt = append(t.argsAt, ran)
	}
	if ahead := m.Header[hNode]; ahead != "" {
		// Sent ahead there before this message left: it is there, or on
		// its way.
		if i, err := strconv.Atoi(ahead); err == nil && i >= 0 && i < len(c.nodes) && c.nodes[i].alive {
			t.at = append(t.at, i)
		}
	}
	c.stopped(t)
	if next.id == 0 {
		c.pool.starved(t.slot)
	}
	c.pool.finish(t.slot)
	if next.id != 0 { // the core went on at once with an order started ahead
		c.began(next.id, next.exec, next.slot)
	}
	c.active--
	if t.fail != nil {
		c.failed(t)
	}
	for _, w := range t.waiters {
		c.resume(w, t)
	}
	t.waiters = nil
	if t == c.main && t.fail == nil {
		close(c.mainDone)
	}
	return nil
}

// answer answers r's request (to reply) for t's result, which ended: r
// goes on on core slot, with t's failure, or its result, which is on
// r's node (or on its way there, sent ahead), or comes with the answer
// when small, or from a node holding it, which the coordinator asks to
// answer with it (hFetch); or r asks again when no live node holds it.
// The caller holds c.mu.
func (c *coordinator) answer(r, t *tracked, reply string, slot int) {
	var m *Message
	switch at := c.liveOf(t.at); {
	case t.fail != nil:
		data, failed := outcome(nil, t.fail)
		m = message(reply, data, failed...)
	case slices.Contains(t.at, c.node(slot).index):
		m = message(reply, nil)
	case t.result != nil:
		m = message(reply, t.result, hResult, true)
	case at >= 0:
		r.via, r.viaReply, r.heard = at, reply, false
		h := c.nodes[at]
		h.out.put(message(h.inbox, nil, hFetch, true, hReply, reply, hSlot, slot, hParent, t.parent, hChild, t.child))
		return
	default:
		m = message(reply, nil, hAgain, true)
	}
	m.Header[hSlot] = strconv.Itoa(slot)
	if err := c.conn.Publish(m); err != nil {
		c.fail(err)
	}
}

// resume files w, which waited for t's result, with the pool, and
// answers its request when the pool gives it a core (dispatched). The
// caller holds c.mu.
func (c *coordinator) resume(w, t *tracked) {
	w.waitsFor = 0
	c.waiting--
	c.active++
	exec, to := w.exec, w.reply
	c.pool.resumeFrom(w.slot).then = func(slot int) {
		if slot < 0 || w.exec != exec {
			return // its node was lost: it runs again
		}
		w.slot = slot
		c.ran(w)
		c.answer(w, t, to, slot)
	}
}

func (c *coordinator) onBeat(m *Message) error {
	f := fields{m: m}
	proc := int(f.int(hProc))
	if f.err != nil {
		return f.err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if proc >= 0 && proc < len(c.nodes) {
		c.nodes[proc].lastBeat = time.Now()
	}
	return nil
}

// watch loses the nodes silent for lostAfter, until the run ends.
func (c *coordinator) watch() {
	t := time.NewTicker(heartbeat)
	defer t.Stop()
	for {
		select {
		case <-c.ctx.Done():
			return
		case now := <-t.C:
			c.mu.Lock()
			var silent []*member
			for _, n := range c.nodes {
				if n.alive && now.Sub(n.lastBeat) > lostAfter {
					silent = append(silent, n)
				}
			}
			c.mu.Unlock()
			for _, n := range silent {
				c.lose(n, fmt.Errorf("silent for %v", lostAfter))
			}
		}
	}
}

// lose takes node n out of the run: the orders it ran or held run again
// elsewhere, from their start, and make the same children again (an
// order changes nothing but its own values, so running it twice is
// safe), and so do the orders whose start went through it and may not
// have arrived; the results and arguments it held are gone, and an
// ended order whose result no live node holds is made again when an
// order requests it (onGet), from arguments on another node or, when
// none holds them, once its maker has made it again (need).
func (c *coordinator) lose(n *member, why error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	defer c.dispatched()
	if !n.alive || c.ctx.Err() != nil {
		return
	}
	n.alive = false
	c.pool.lose(n.slots)
	// A worker silent too long may still run: it must not go on alone.
	_ = c.conn.Publish(message(n.inbox, nil, hStop, true, hWhy, fmt.Sprintf("this worker was lost: %v", why)))
	again := 0
	for _, t := range c.orders {
		t.at = slices.DeleteFunc(t.at, func(i int) bool { return i == n.index })
		t.argsAt = slices.DeleteFunc(t.argsAt, func(i int) bool { return i == n.index })
		if t.done || t.slot < 0 {
			continue
		}
		here := c.node(t.slot) == n
		if !here && (t.via != n.index || t.heard) {
			if t.backVia == n && t.aheadOn != nil && t.aheadOn.reclaiming {
				c.askBack(t.aheadOn) // the question went through n, and may be lost with it
			}
			continue
		}
		if !here && t.viaReply != "" {
			// The answer n was to give it may not have left: it asks again.
			_ = c.conn.Publish(message(t.viaReply, nil, hAgain, true, hSlot, t.slot))
			t.via, t.viaReply = -1, ""
			continue
		}
		if t.waitsFor != 0 {
			f := c.orders[t.waitsFor]
			f.waiters = slices.DeleteFunc(f.waiters, func(w *tracked) bool { return w == t })
			t.waitsFor = 0
			c.waiting--
			c.active++
		}
		// Its lost execution is not one of the run's: its worker's count
		// and its stretches forget it (the worker's busy time keeps it).
		if t.aheadOn == nil || !c.pool.retract(t.slot, t.aheadOn) {
			c.pool.uncount(t.slot)
			if !here {
				c.pool.finish(t.slot) // the core it was started on, which it never reached
			}
		}
		if t.run != nil {
			t.run.stretches = nil
		}
		t.slot, t.aheadOn = -1, nil
		t.exec++ // its lost execution's messages are stale now
		c.need(t)
		again++
	}
	fmt.Fprintf(c.stderr, "orders: lost worker %d (%s, pid %d): %v; %d orders run again on the others\n", n.index, n.host, n.pid, why, again)
	for _, m := range c.nodes {
		if m.alive {
			return
		}
	}
	c.fail(fmt.Errorf("orders: every worker was lost (the last: %v)", why))
}

// failed ends the run with t's failure, once its requesters know it. The
// caller holds c.mu.
func (c *coordinator) failed(t *tracked) {
	oe := t.fail.orderError()
	for w := t; len(w.waiters) > 0 && len(oe.Requesters) < 64; {
		w = w.waiters[0]
		oe.Requesters = append(oe.Requesters, OrderRef{Order: w.id, Proc: w.proc})
	}
	c.fail(oe)
}

// fail ends the run with err, unless it ended already.
func (c *coordinator) fail(err error) {
	c.runState.mu.Lock()
	defer c.runState.mu.Unlock()
	if c.first == nil {
		c.first = err
		c.cancel()
	}
}

// checkDeadlock fails the run when every order left waits for another.
// The caller holds c.mu.
func (c *coordinator) checkDeadlock() {
	if c.active > 0 || c.waiting == 0 {
		return
	}
	d := &DeadlockError{}
	for _, t := range c.orders {
		if t.waitsFor != 0 {
			f := c.orders[t.waitsFor]
			d.Waits = append(d.Waits, Wait{Order: t.id, Proc: t.proc, For: f.id, ForProc: f.proc})
		}
	}
	sortWaits(d.Waits)
	c.fail(d)
}

// since is the time since the run started, in seconds.
func (c *coordinator) since() float64 { return time.Since(c.start).Seconds() }

// ran and stopped open and close a stretch of t on its core, when the
// run's schedule is kept. The caller holds c.mu.
func (c *coordinator) ran(t *tracked) {
	if t.run != nil {
		t.run.stretches = append(t.run.stretches, measured.Stretch{Worker: t.slot, Start: c.since()})
	}
}

func (c *coordinator) stopped(t *tracked) {
	if t.run != nil && len(t.run.stretches) > 0 {
		t.run.stretches[len(t.run.stretches)-1].End = c.since()
	}
}

// schedules returns every order's real schedule, by id.
func (c *coordinator) schedules() []measured.Order {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make([]measured.Order, 0, len(c.orders))
	for id := int64(1); id <= c.count; id++ {
		t := c.orders[id]
		out = append(out, measured.Order{ID: t.id, Parent: t.parent, Child: t.child, Proc: t.proc, Made: t.run.made, Stretches: t.run.stretches})
	}
	return out
}

// stopAll tells every live node that the run ended (why, when it
// failed).
func (c *coordinator) stopAll(why string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, n := range c.nodes {
		if n.alive {
			_ = c.conn.Publish(message(n.inbox, nil, hStop, true, hWhy, why))
		}
	}
	_ = c.conn.Flush()
}

// admit lets up to want workers join: it answers their hellos with
// each one's number and cores, and closes the channel it returns once
// all have joined. The caller subscribes it before starting workers, so
// that no hello goes unanswered.
func (c *coordinator) admit(want int) (joined <-chan struct{}, unsubscribe func() error, err error) {
	all := make(chan struct{})
	unsubscribe, err = c.conn.Subscribe(subjectHello, func(m *Message) {
		h, err := decode1[helloMsg](m.Data)
		if err != nil {
			_ = c.reply(m, helloReply{Err: err.Error()})
			return
		}
		c.mu.Lock()
		defer c.mu.Unlock()
		if len(c.nodes) == want {
			_ = c.reply(m, helloReply{Err: fmt.Sprintf("the run has its %d workers", want)})
			return
		}
		n := &member{index: len(c.nodes), inbox: h.Inbox, host: h.Host, pid: h.PID, alive: true, lastBeat: time.Now(),
			out: newOutbox(c.conn, h.Inbox, c.fail)}
		for k := range c.cores {
			n.slots = append(n.slots, n.index*c.cores+k)
		}
		c.nodes = append(c.nodes, n)
		_ = c.reply(m, helloReply{Proc: n.index, Cores: c.cores})
		if len(c.nodes) == want {
			close(all)
		}
	})
	return all, unsubscribe, err
}

// join waits until the workers have joined (admit). A process the
// transport started that ends before it joined ends the wait with its
// error; one that ends after it joined is lost as one that ends during
// the run is: its end is returned (lost), for the session to lose it
// once the run begins, and the others go on joining.
func (c *coordinator) join(ctx context.Context, want int, joined <-chan struct{}, exited <-chan Exit) (lost []Exit, err error) {
	timeout := time.NewTimer(2 * time.Minute)
	defer timeout.Stop()
	for {
		select {
		case <-joined:
			return lost, nil
		case e := <-exited:
			if !c.joinedPID(e.PID) {
				return nil, fmt.Errorf("orders: worker process (pid %d) ended: %v", e.PID, e.Err)
			}
			lost = append(lost, e)
		case <-timeout.C:
			c.mu.Lock()
			defer c.mu.Unlock()
			return nil, fmt.Errorf("orders: %d of %d workers joined in 2 minutes", len(c.nodes), want)
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}

// joinedPID reports whether the worker process pid has joined.
func (c *coordinator) joinedPID(pid int) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return slices.ContainsFunc(c.nodes, func(n *member) bool { return n.pid == pid })
}

// reply answers request m with r gob-encoded.
func (c *coordinator) reply(m *Message, r helloReply) error {
	b, err := encode1(r)
	if err != nil {
		return err
	}
	return respond(c.conn, m, &Message{Data: b})
}
