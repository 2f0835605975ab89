package orders

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"sync"
	"time"

	"github.com/presage-dvm/presage/orders/measured"
)

// coordinator runs a program's orders on worker processes, the nodes of
// the cluster: it makes every order, places it on a core by the pool's
// rule (the simulator's, every node's cores pinned to it: a suspended
// order is a goroutine of its process and resumes there), keeps every
// result, and runs again the orders of a node it loses.
type coordinator struct {
	conn   Conn
	pool   *pool
	cores  int // per node
	stderr io.Writer

	mu       sync.Mutex
	nodes    []*member
	orders   map[int64]*tracked
	byName   map[ref]*tracked
	count    int64
	active   int // orders placed or running, not waiting: 0 with waits is a deadlock
	waiting  int
	main     *tracked
	mainDone chan struct{}
	start    time.Time
	schedule bool
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
	args       []byte
	exec       int // executions started, and lost ones: a message of another is stale
	slot       int // the core it runs or waits on, -1 before it starts
	done       bool
	result     []byte
	fail       *wireFailure
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
}

// node returns the member whose core slot is.
func (c *coordinator) node(slot int) *member { return c.nodes[slot/c.cores] }

// subscribe handles the workers' messages to the coordinator, one at a
// time in the order they came (an order's making comes before any
// request naming it); a message that cannot be read ends the run.
func (c *coordinator) subscribe() error {
	handlers := map[string]func(*Message) error{
		subjectMake: c.onMake,
		subjectGet:  c.onGet,
		subjectDone: c.onDone,
		subjectBeat: c.onBeat,
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
// the pool, and starts it when the pool gives it a core.
func (c *coordinator) place(t *tracked, from int) {
	ticket := c.pool.place(from)
	go func() {
		slot := c.pool.wait(ticket)
		if slot < 0 {
			return
		}
		c.startOn(t, slot)
	}()
}

// startOn starts t on core slot, or places it again when that core's
// node was lost meanwhile.
func (c *coordinator) startOn(t *tracked, slot int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := c.node(slot)
	if !n.alive {
		c.place(t, -1)
		return
	}
	t.slot, t.made = slot, 0
	t.exec++
	c.ran(t)
	n.out.put(message(n.inbox, t.args, hOrder, t.id, hExec, t.exec, hProc, t.proc, hSlot, slot, hParent, t.parent, hChild, t.child))
}

func (c *coordinator) onMake(m *Message) error {
	f := fields{m: m}
	parentID, exec, proc := f.int(hParent), int(f.int(hExec)), f.str(hProc)
	if f.err != nil {
		return f.err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	parent := c.orders[parentID]
	if parent == nil || parent.exec != exec {
		return nil // a lost execution's
	}
	parent.made++
	if parent.made <= len(parent.kids) {
		return nil // run again: its children are made already
	}
	t := c.newOrder(parent, proc, m.Data)
	c.place(t, parent.slot)
	return nil
}

// newOrder files a new order of proc made by parent (nil for main).
// The caller holds c.mu.
func (c *coordinator) newOrder(parent *tracked, proc string, args []byte) *tracked {
	c.count++
	t := &tracked{id: c.count, proc: proc, args: args, slot: -1}
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
	name := ref{Parent: f.int(hParent), Child: int(f.int(hChild))}
	if f.err != nil {
		return f.err
	}
	c.mu.Lock()
	r, want := c.orders[id], c.byName[name]
	switch {
	case r == nil || r.exec != exec:
		c.mu.Unlock()
		return respond(c.conn, m, message("", nil, hStale, true))
	case want == nil:
		c.mu.Unlock()
		data, failed := outcome(nil, &wireFailure{Order: r.id, Proc: r.proc, Misuse: true,
			Msg: fmt.Sprintf("Get of child %d of order %d, which it never made", name.Child, name.Parent)})
		return respond(c.conn, m, message("", data, append(failed, hSlot, slot)...))
	case want.done:
		c.mu.Unlock()
		data, failed := outcome(want.result, want.fail)
		return respond(c.conn, m, message("", data, append(failed, hSlot, slot)...))
	}
	c.pool.suspend(r.slot)
	c.stopped(r)
	r.waitsFor, r.reply = want.id, m.Reply
	want.waiters = append(want.waiters, r)
	c.active--
	c.waiting++
	c.checkDeadlock()
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
	c.mu.Lock()
	defer c.mu.Unlock()
	t := c.orders[id]
	if t == nil || t.exec != exec || t.done {
		return nil // a lost execution's
	}
	t.done, t.result, t.fail = true, m.Data, fail
	t.args = nil
	c.stopped(t)
	c.pool.finish(t.slot)
	c.active--
	if t.fail != nil {
		c.failed(t)
	}
	makerWaits := false
	for _, w := range t.waiters {
		makerWaits = makerWaits || w.id == t.parent
		c.resume(w, t)
	}
	t.waiters = nil
	if !makerWaits { // else the answer to its Get carries the result
		c.sendAhead(t)
	}
	if t == c.main && t.fail == nil {
		close(c.mainDone)
	}
	return nil
}

// sendAhead sends t's result to the node its maker runs on, when that is
// another node than t's (a node keeps the results of the orders it ran):
// the maker will most likely request it. The caller holds c.mu.
func (c *coordinator) sendAhead(t *tracked) {
	p := c.orders[t.parent]
	if p == nil || p.done || p.slot < 0 || c.node(p.slot) == c.node(t.slot) || !c.node(p.slot).alive {
		return
	}
	data, failed := outcome(t.result, t.fail)
	to := c.node(p.slot)
	to.out.put(message(to.inbox, data, append(failed, hResult, true, hParent, t.parent, hChild, t.child)...))
}

// resume files w, which waited for t's result, with the pool, and sends
// it the result when the pool gives it a core. The caller holds c.mu.
func (c *coordinator) resume(w, t *tracked) {
	w.waitsFor = 0
	c.waiting--
	c.active++
	exec, to := w.exec, w.reply
	ticket := c.pool.resumeFrom(w.slot)
	go func() {
		slot := c.pool.wait(ticket)
		if slot < 0 {
			return // its node was lost: it runs again
		}
		c.mu.Lock()
		if w.exec != exec {
			c.mu.Unlock()
			return
		}
		w.slot = slot
		c.ran(w)
		c.mu.Unlock()
		data, failed := outcome(t.result, t.fail)
		if err := c.conn.Publish(message(to, data, append(failed, hSlot, slot)...)); err != nil {
			c.fail(err)
		}
	}()
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
// safe); the results it sent are kept.
func (c *coordinator) lose(n *member, why error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !n.alive || c.ctx.Err() != nil {
		return
	}
	n.alive = false
	c.pool.lose(n.slots)
	// A worker silent too long may still run: it must not go on alone.
	_ = c.conn.Publish(message(n.inbox, nil, hStop, true, hWhy, fmt.Sprintf("this worker was lost: %v", why)))
	again := 0
	for _, t := range c.orders {
		if t.done || t.slot < 0 || c.node(t.slot) != n {
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
		c.pool.uncount(t.slot)
		if t.run != nil {
			t.run.stretches = nil
		}
		t.slot = -1
		t.exec++ // its lost execution's messages are stale now
		c.place(t, -1)
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

// join waits until the workers have joined (admit); a process the
// transport started that ends meanwhile ends the wait with its error.
func (c *coordinator) join(ctx context.Context, want int, joined <-chan struct{}, exited <-chan Exit) error {
	timeout := time.NewTimer(2 * time.Minute)
	defer timeout.Stop()
	select {
	case <-joined:
		return nil
	case e := <-exited:
		return fmt.Errorf("orders: worker process (pid %d) ended: %v", e.PID, e.Err)
	case <-timeout.C:
		c.mu.Lock()
		defer c.mu.Unlock()
		return fmt.Errorf("orders: %d of %d workers joined in 2 minutes", len(c.nodes), want)
	case <-ctx.Done():
		return ctx.Err()
	}
}

// reply answers request m with r gob-encoded.
func (c *coordinator) reply(m *Message, r helloReply) error {
	b, err := encode1(r)
	if err != nil {
		return err
	}
	return respond(c.conn, m, &Message{Data: b})
}
