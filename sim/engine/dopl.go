package engine

import (
	"github.com/presage-dvm/presage/sim/internal/layout"
	"github.com/presage-dvm/presage/sim/internal/section"
)

// dopl distributes the loop's time over the processors by their iteration
// blocks (docs/model.md §5.8); it never runs RegularTime.
func dopl(e *Engine) error {
	lp, err := e.loopRef()
	if err != nil {
		return err
	}
	doPL, err := e.dec(out, kDoPL)
	if err != nil {
		return err
	}
	portion, hasPortion, err := e.portion()
	if err != nil {
		return err
	}
	m := lp.m
	if e.callT == 0 || m == nil || m.Size == 0 {
		return nil
	}
	if lp.across && doPL == 1 {
		e.acrossPortion(lp)
	}
	if lp.across && doPL == 0 {
		return e.acrossEnd(lp)
	}
	e.distributeLoopTime(lp, portion, hasPortion)
	e.loopSys()
	return nil
}

// portion reads the optional Dim/Lower/Upper/Step arrays of dopl_.
func (e *Engine) portion() (section.Block, bool, error) {
	dims, err := e.optDecArray(out, kDim)
	if err != nil || dims == nil {
		return nil, false, err
	}
	lo, err := e.decArray(out, kLower)
	if err != nil {
		return nil, false, err
	}
	hi, err := e.decArray(out, kUpper)
	if err != nil {
		return nil, false, err
	}
	st, err := e.decArray(out, kStep)
	if err != nil {
		return nil, false, err
	}
	b := make(section.Block, len(dims))
	for i := range b {
		b[i] = section.Section{Lower: at(lo, i), Upper: at(hi, i), Step: at(st, i)}
	}
	return b, true, nil
}

// distributeLoopTime charges the loop's user time to the processors by their
// share of the iterations, with insufficient parallelism where several
// processors execute the same block.
func (e *Engine) distributeLoopTime(lp *loop, portion section.Block, hasPortion bool) {
	m := lp.m
	vm := m.Tmpl.VM
	if vm == nil {
		return
	}
	prev, hadPrev := lp.portion, lp.hasPortion
	if hasPortion {
		lp.portion, lp.hasPortion = portion, true
	}
	if !hadPrev && vm.Uniform && !e.cur.io {
		e.distributeUniform(m, vm)
		return
	}
	// Most blocks are of one size on processors of one power: their share
	// is computed once.
	lastC, lastSize, lastT := -1.0, int64(-1), 0.0
	for k, b := range m.Blocks {
		if m.sizes[k] == 0 || k >= vm.P() {
			continue
		}
		c := e.callT / vm.Power[k]
		var t float64
		switch {
		case hadPrev:
			ps := portionSize(prev)
			if ps == 0 {
				continue
			}
			t = c * float64(common(prev, b)) / float64(ps)
		case c == lastC && m.sizes[k] == lastSize:
			t = lastT
		default:
			t = c * float64(m.sizes[k]) / float64(m.Size)
			lastC, lastSize, lastT = c, m.sizes[k], t
		}
		ins := 0.0
		n := m.Sharers[k]
		if n > 1 {
			ins = t * float64(n-1) / float64(n)
		}
		e.chargeIterations(vm.Map[k], t, ins, n > 1)
	}
}

// distributeUniform is distributeLoopTime without a remembered portion on
// a VM of every root processor, all of one power, outside an I/O block:
// the charges of chargeIterations with the call time divided once and the
// share computed once per block size, made once per class of processors
// with the same block size and sharing count.
func (e *Engine) distributeUniform(m *loopMapping, vm *layout.VM) {
	shares := m.shares(e, vm)
	if shares == nil {
		e.distributeEach(m, vm)
		return
	}
	c := e.callT / vm.Power[0]
	size := float64(m.Size)
	labels := shares.classes.of(e, shares.label) // may split classes
	rows := e.classRows(e.cur)
	for cl, l := range labels {
		if l == noLabel {
			continue
		}
		g := shares.groups[l]
		e.chargeIterationRow(&rows[cl], int32(cl), c*float64(g.size)/size, g.sharers)
	}
}

// distributeEach is distributeUniform processor by processor, for a VM
// whose map repeats a processor.
func (e *Engine) distributeEach(m *loopMapping, vm *layout.VM) {
	c := e.callT / vm.Power[0]
	size := float64(m.Size)
	for k := 0; k < min(len(m.Blocks), vm.P()); k++ {
		if sz := m.sizes[k]; sz != 0 {
			cl := e.isolate(vm.Map[k])
			e.chargeIterationRow(&e.classRows(e.cur)[cl], cl, c*float64(sz)/size, m.Sharers[k])
		}
	}
}

// chargeIterationRow charges t of user time to class cl (row r), with the
// insufficient parallelism of a block executed by sharers processors.
func (e *Engine) chargeIterationRow(r *counters, cl int32, t float64, sharers int) {
	if sharers <= 1 {
		e.chargeUser(r, cl, t)
		return
	}
	e.markRepeated(float64(sharers-1) / float64(sharers))
	e.chargeUser(r, cl, t)
	e.markRepeated(0)
	chargeInsufficient(r, t*float64(sharers-1)/float64(sharers)) // in this order: the values stay bit for bit
}

// chargeUser charges t of user time to class cl (row r) and advances its
// clock.
func (e *Engine) chargeUser(r *counters, cl int32, t float64) {
	r[cUsr] += t
	r[cCPU] += t
	r[cExec] += t
	if t != 0 {
		if r := e.rec; r != nil {
			if r.userLater() {
				// Summed when the class's tally is next used (settle):
				// here only the charges on every processor kept within
				// the class's column.
				r.limitUniform(&r.classes[cl], e.clk[cl]+t)
			} else {
				e.recordUser(cl, t)
			}
		}
		e.clk[cl] += t
		e.skewed = true
	}
}

// chargeInsufficient charges x of the user's insufficient parallelism to
// row r.
func chargeInsufficient(r *counters, x float64) {
	r[cInsU] += x
	r[cIns] += x
	r[cLost] += x
}

// iterationShares groups the root processors of a loop mapping by what
// dopl_ charges them: the size of their block and how many processors
// share it.
type iterationShares struct {
	vm      *layout.VM
	n       int // len(vm.Map) when made
	label   []int32
	groups  []shareGroup
	classes classLabels
}

type shareGroup struct {
	size    int64
	sharers int
}

// shares returns the mapping's processor groups on vm, made once; nil
// when vm's map repeats a processor.
func (m *loopMapping) shares(e *Engine, vm *layout.VM) *iterationShares {
	if s := m.byShare; s != nil && s.vm == vm && s.n == len(vm.Map) {
		return s
	}
	if !e.coversRoot(vm) {
		return nil
	}
	s := &iterationShares{vm: vm, n: len(vm.Map), label: make([]int32, e.L)}
	index := map[shareGroup]int32{}
	for k, p := range vm.Map {
		s.label[p] = noLabel
		if k >= len(m.Blocks) || m.sizes[k] == 0 {
			continue
		}
		g := shareGroup{m.sizes[k], m.Sharers[k]}
		l, ok := index[g]
		if !ok {
			l = int32(len(s.groups))
			index[g] = l
			s.groups = append(s.groups, g)
		}
		s.label[p] = l
	}
	m.byShare = s
	return s
}

// chargeIterations is add(KUsr, p, t) followed, for a block several
// processors execute, by add(KInsUsr, p, ins), written out for the hot loop
// of dopl_ (the I/O filter takes the general path).
func (e *Engine) chargeIterations(p int, t, ins float64, shared bool) {
	if shared && t > 0 && e.rec != nil {
		e.markRepeated(ins / t)
		defer e.markRepeated(0)
	}
	if e.cur.io {
		e.add(KUsr, p, t)
		if shared {
			e.add(KInsUsr, p, ins)
		}
		return
	}
	cl := e.isolate(p)
	r := &e.classRows(e.cur)[cl]
	e.chargeUser(r, cl, t)
	if shared {
		chargeInsufficient(r, ins)
	}
}

// loopSys charges dopl_'s ret time: CPU_time_sys on every processor and the
// unscaled insufficient parallelism.
func (e *Engine) loopSys() {
	vm := e.vm
	P := float64(vm.P())
	ins := e.retT * (P - 1) / P
	e.markRepeated((P - 1) / P)
	if vm.Uniform && !e.cur.io {
		e.addAll(vm, KSys, e.retT/vm.Power[0])
		e.addAll(vm, KInsSys, ins)
	} else {
		for k, p := range vm.Map {
			e.add(KSys, p, e.retT/vm.Power[k])
			e.add(KInsSys, p, ins)
		}
	}
	e.markRepeated(0)
}

func portionSize(b section.Block) int64 {
	n := int64(1)
	for _, s := range b {
		if s.Lower < 0 || s.Step <= 0 {
			return 0
		}
		n *= (s.Upper-s.Lower)/s.Step + 1
	}
	return n
}

// common is Π_d the number of equal index pairs of the portion and the block.
func common(p, b section.Block) int64 {
	if len(p) != len(b) {
		return 0
	}
	n := int64(1)
	for d := range p {
		n *= section.Intersect(p[d], b[d]).Size()
	}
	return n
}
