package engine

import (
	"github.com/presage-dvm/presage/sim/internal/layout"
	"github.com/presage-dvm/presage/sim/network"
)

// redGroup is a reduction group (crtrg_/insred_).
type redGroup struct {
	vm        *layout.VM
	totalSize int64
}

// pending is a started collective operation awaiting its wait call.
type pending struct {
	timeStart, timeEnd float64
}

func crtred(e *Engine) error {
	ref, err := e.handle(out, kRedRef)
	if err != nil {
		return err
	}
	typ, err := e.dec(in, kRedArrayType)
	if err != nil {
		return err
	}
	n, err := e.dec(in, kRedArrayLength)
	if err != nil {
		return err
	}
	loc, err := e.dec(in, kLocElmLength)
	if err != nil {
		return err
	}
	var size int64
	switch typ {
	case 1, 3:
		size = 4
	case 2, 4:
		size = 8
	}
	e.reds.set(ref, (loc+size)*n)
	return nil
}

func crtrg(e *Engine) error {
	ref, err := e.handle(out, kRedGroupRef)
	if err != nil {
		return err
	}
	// Reused once deleted: a program creates one at every iteration.
	g := reuse(&e.freeRed)
	*g = redGroup{vm: e.vm}
	e.redGroups.set(ref, g)
	return nil
}

func insred(e *Engine) error {
	g, err := e.redGroup()
	if err != nil {
		return err
	}
	ref, err := e.handle(in, kRedRef)
	if err != nil {
		return err
	}
	size, ok := e.reds.get(ref)
	if !ok {
		return e.errorf("reduction variable RedRef=%x was never created (crtred_)", ref)
	}
	g.totalSize += size
	return nil
}

func (e *Engine) redGroup() (*redGroup, error) {
	ref, err := e.handle(in, kRedGroupRef)
	if err != nil {
		return nil, err
	}
	g, ok := e.redGroups.get(ref)
	if !ok {
		return nil, e.errorf("reduction group RedGroupRef=%x was never created (crtrg_)", ref)
	}
	return g, nil
}

func strtrd(e *Engine) error {
	ref, err := e.handle(in, kRedGroupRef)
	if err != nil {
		return err
	}
	if !e.redGroups.has(ref) {
		return e.errorf("reduction group RedGroupRef=%x was never created (crtrg_)", ref)
	}
	e.mpsSync(KWaitReduct)
	e.pendRed.set(ref, pending{timeStart: e.clock(0)})
	e.cur.nop[classReduction]++
	return nil
}

func waitrd(e *Engine) error {
	ref, err := e.handle(in, kRedGroupRef)
	if err != nil {
		return err
	}
	g, ok := e.redGroups.get(ref)
	if !ok {
		return e.errorf("reduction group RedGroupRef=%x was never created (crtrg_)", ref)
	}
	rec, ok := e.pendRed.get(ref)
	if !ok {
		e.warn("waitrd_ without strtrd_: ignored")
		return nil
	}
	e.pendRed.remove(ref)
	var end float64
	if e.net.Kind() == network.Cluster {
		if end, err = e.reductionEnd(g); err != nil {
			return err
		}
	} else {
		end = rec.timeStart + e.reductionTime(g)
	}
	e.waitRule(rec.timeStart, end, KWaitReduct, KReductOverlap)
	return nil
}

// reductionEnd is StartR: a gather to processor 0 and a broadcast back over
// the processors owning part of the last mapped loop's pattern array; it
// returns the end of the broadcast (0 when nothing is sent).
func (e *Engine) reductionEnd(g *redGroup) (float64, error) {
	lp := e.lastLoop
	if lp == nil || lp.OnArray == nil {
		return 0, nil
	}
	o, err := e.owners(lp.OnArray)
	if err != nil {
		return 0, err
	}
	n := len(o.ks)
	if n == 0 {
		return 0, nil
	}
	m := o.sized(e.net, g.totalSize)
	senders, root := o.physical()
	c0 := e.clock(root[0])
	if !e.recordsMessages() && !e.inOrder {
		earliest, latest := e.clockRange(senders, &o.senders)
		e.sendSpan(m.up, senders, earliest, latest) // only the channels' state matters
		return e.sendSpan(m.down, root, c0, c0), nil
	}
	s := e.sends(n)
	for j, p := range senders {
		s.at[j] = e.clock(p)
	}
	e.net.SendBatch(m.up, s.at, s.t0, s.begin, s.end)
	e.recordBatch(classReduction, o.ks, o.zeros, m.bytes, s.at, s.end)
	for j := range s.at {
		s.at[j] = c0
	}
	e.net.SendBatch(m.down, s.at, s.t0, s.begin, s.end)
	e.recordBatch(classReduction, o.zeros, o.ks, m.bytes, s.at, s.end)
	end := 0.0
	for _, en := range s.end {
		end = later(end, en)
	}
	return end, nil
}

// reductionOwners are the VM processors 1..P−1 owning part of an array,
// with the routes of their messages to and from processor 0 (VM indices
// taken as physical processors, as the original does), valid while the
// layout epoch and the current VM stay the same.
type reductionOwners struct {
	a        *layout.Array
	vm       *layout.VM
	p, epoch int
	ks       []int
	zeros    []int // len(ks) zeros: processor 0 at the other end
	bySize   handles[int64, *reductionMessages]
	// procs[j] = vm.Map[ks[j]], whose clock issues message j of the
	// gather, and root, len(ks) times vm.Map[0], whose clock issues the
	// broadcast: made on first use. senders caches the classes of procs.
	procs, root []int
	senders     senderClasses
}

// physical returns the processors whose clocks issue the messages of the
// gather and of the broadcast.
func (o *reductionOwners) physical() (senders, root []int) {
	if o.procs == nil {
		o.procs, o.root = make([]int, len(o.ks)), make([]int, len(o.ks))
		for j, k := range o.ks {
			o.procs[j], o.root[j] = o.vm.Map[k], o.vm.Map[0]
		}
	}
	return o.procs, o.root
}

// reductionMessages are the routed gather (up) and broadcast (down) of a
// reduction whose messages are all of bytes[0] bytes.
type reductionMessages struct {
	bytes    []int64
	up, down *network.Batch
}

// sized returns the gather and broadcast of messages of size bytes,
// routed on first use: a program reduces over a few group sizes.
func (o *reductionOwners) sized(net *network.Net, size int64) *reductionMessages {
	if m, ok := o.bySize.get(size); ok {
		return m
	}
	bytes := make([]int64, len(o.ks))
	for i := range bytes {
		bytes[i] = size
	}
	m := &reductionMessages{bytes: bytes, up: net.NewBatch(o.ks, o.zeros, bytes), down: net.NewBatch(o.zeros, o.ks, bytes)}
	o.bySize.set(size, m)
	return m
}

func (e *Engine) owners(a *layout.Array) (*reductionOwners, error) {
	o := &e.ownCache
	if o.a == a && o.vm == e.vm && o.p == e.vm.P() && o.epoch == e.epoch {
		return o, nil
	}
	var ks, zeros []int
	for i := 1; i < e.vm.P(); i++ {
		b, err := a.Loc(i)
		if err != nil {
			o.a = nil
			return nil, e.errorf("%v", err)
		}
		if b != nil {
			ks = append(ks, i)
			zeros = append(zeros, 0)
		}
	}
	*o = reductionOwners{a: a, vm: e.vm, p: e.vm.P(), epoch: e.epoch, ks: ks, zeros: zeros}
	return o, nil
}

// reductionTime is StartR on a bus or mesh (seed 000 §4.4): the network's
// reduction time over the grid dimensions the last mapped loop is
// distributed on. As in the cluster model it is 0 when the loop is not
// mapped on an array, and, as the seed says, when that array is fully
// replicated.
func (e *Engine) reductionTime(g *redGroup) float64 {
	lp := e.lastLoop
	if lp == nil || lp.OnArray == nil || lp.OnArray.Replicated() || lp.Tmpl == nil || lp.Tmpl.VM == nil {
		return 0
	}
	t := lp.Tmpl
	dist := make([]bool, t.VM.Rank())
	any := false
	for i, ax := range t.Axis {
		if ax == 0 || ax-1 >= len(lp.Rules) || i >= len(dist) {
			continue
		}
		if r := lp.Rules[ax-1]; r.Kind == layout.Normal && r.Dim < lp.Rank {
			dist[i], any = true, true
		}
	}
	if !any {
		return 0
	}
	return e.net.Reduction(g.totalSize, dist)
}

// waitRule charges the wait of a started operation on every processor of
// the current VM: a processor arriving before timeEnd waits for the rest
// and overlapped from timeStart to its arrival; a later one overlapped
// from timeStart to its arrival (docs/model.md §4.1, §4.2).
func (e *Engine) waitRule(timeStart, timeEnd float64, wait, overlap Kind) {
	if vm := e.vm; !e.skewed && vm.Uniform && !e.cur.io {
		// Every processor has the same clock: one uniform charge.
		c := e.clkU
		e.addAll(vm, overlap, c-timeStart)
		if c < timeEnd {
			e.addAll(vm, wait, timeEnd-c)
		}
		return
	}
	if !e.cur.io && e.coversRoot(e.vm) {
		// Processors of one class have one clock: one charge per class.
		for _, cl := range e.allClasses() {
			c := e.classClock(cl)
			e.chargeClass(e.cur, overlap, cl, c-timeStart)
			if c < timeEnd {
				e.chargeClass(e.cur, wait, cl, timeEnd-c)
			}
		}
		return
	}
	for _, p := range e.vm.Map {
		c := e.clock(p)
		e.add(overlap, p, c-timeStart)
		if c < timeEnd {
			e.add(wait, p, timeEnd-c)
		}
	}
}

// delred and delrg forget the objects (the run-time system reuses their
// handles).
func delred(e *Engine) error {
	ref, err := e.handle(in, kRedRef)
	if err != nil {
		return err
	}
	e.reds.remove(ref)
	return nil
}

func delrg(e *Engine) error {
	ref, err := e.handle(in, kRedGroupRef)
	if err != nil {
		return err
	}
	if g, ok := e.redGroups.get(ref); ok {
		e.redGroups.remove(ref)
		e.freeRed = append(e.freeRed, g)
	}
	e.pendRed.remove(ref)
	return nil
}
