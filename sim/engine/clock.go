package engine

import (
	"slices"

	"github.com/presage-dvm/presage/sim/internal/layout"
)

// clock is the simulated elapsed time of absolute processor p.
func (e *Engine) clock(p int) float64 { return e.clkU + e.clk[e.classes.of[p]] }

// classClock is the simulated elapsed time of the processors of class c.
func (e *Engine) classClock(c int32) float64 { return e.clkU + e.clk[c] }

// add is AddTime(kind, p, d) on the current interval, with the I/O filter
// (docs/model.md §6.1).
func (e *Engine) add(k Kind, p int, d float64) {
	iv := e.cur
	if iv.io && k != KIOComm {
		if p != 0 {
			return
		}
		k = KIOTime
	}
	c := e.isolate(p)
	e.chargeClass(iv, k, c, d)
}

// chargeClass is AddTime(kind, p, d) for every processor p of class c.
func (e *Engine) chargeClass(iv *interval, k Kind, c int32, d float64) {
	r := &e.classRows(iv)[c]
	ki := &kindInfo[k]
	for _, cn := range ki.counters() {
		r[cn] += d
	}
	if ki.clock && d != 0 {
		if e.rec != nil && !e.tallyClass(e.stateOf(k), c, d) {
			e.recordClassAlone(k, c, d)
		}
		e.clk[c] += d
		e.skewed = true
	}
}

// addAll charges d to every processor of vm. On a uniform VM outside an
// I/O block the charge is kept once for all processors.
func (e *Engine) addAll(vm *layout.VM, k Kind, d float64) {
	if vm.Uniform && (!e.cur.io || k == KIOComm) {
		spec, u := &kindInfo[k], &e.cur.uni
		for _, c := range spec.counters() {
			u[c] += d
		}
		if spec.clock {
			if r := e.rec; r != nil && !r.sumUniform(k, e.clkU, d) {
				e.recordAll(k, d)
			}
			e.clkU += d
		}
		return
	}
	for _, p := range vm.Map {
		e.add(k, p, d)
	}
}

// addSynch is AddTimeSynchronize: Synchronization and the class synch
// field, no clock change, no I/O filter.
func (e *Engine) addSynch(k Kind, p int, d float64) {
	e.synchClass(k, e.isolate(p), d)
}

// synchClass is addSynch for every processor of class c.
func (e *Engine) synchClass(k Kind, c int32, d float64) {
	r := &e.classRows(e.cur)[c]
	r[cSynch] += d
	r[cClassSynch+cnt(kindClass(k))] += d
}

// addVary is AddTimeVariation.
func (e *Engine) addVary(k Kind, p int, d float64) {
	r := e.procRow(e.cur, p)
	r[cVary] += d
	r[cClassVary+cnt(kindClass(k))] += d
}

// regular is RegularTime, the base algorithm (docs/model.md §6.3): the call runs
// redundantly on every processor of the current VM.
func (e *Engine) regular() {
	P := float64(e.vm.P())
	f := (P - 1) / P
	e.chargeRegular(f)
}

// chargeRegular charges the current call's times to every processor of
// the current VM, the share f of them as insufficient parallelism.
func (e *Engine) chargeRegular(f float64) {
	vm := e.vm
	if vm.Uniform && !e.cur.io {
		e.chargeUniformCall(e.callT/vm.Power[0], e.retT/vm.Power[0], f)
		return
	}
	// chargeUniformCall tells a recorder of the share f itself; these
	// charges are reported one by one, the share marked.
	e.markRepeated(f)
	if e.cur.io {
		// Only processor 0 is charged within I/O (add's filter): find it
		// rather than visit every processor.
		if k := slices.Index(vm.Map, 0); k >= 0 {
			e.chargeCall(k, 0, f)
		}
	} else {
		for k, p := range vm.Map {
			e.chargeCall(k, p, f)
		}
	}
	e.markRepeated(0)
}

// chargeUniformCall is chargeRegular on a uniform VM outside an I/O
// block: addAll of KUsr c, KSys r (when the call has a return time),
// KInsSys r·f and KInsUsr c·f, in that order, with kindInfo's counters of
// those kinds written out. Every call but a few runs it, and the table's
// loop cost a sixth of a simulation; TestChargeUniformCall holds it to
// the four addAll.
func (e *Engine) chargeUniformCall(c, r, f float64) {
	if rec := e.rec; rec != nil && !(e.clkU+c+r <= rec.uni.to && f == rec.uni.f) {
		e.recordRegular(c, r, f) // unless summed implicitly (uniform)
	}
	u := &e.cur.uni
	u[cUsr] += c
	u[cCPU] += c
	u[cExec] += c
	e.clkU += c
	if e.retT != 0 {
		u[cSys] += r
		u[cCPU] += r
		u[cExec] += r
		e.clkU += r
	}
	rf, cf := r*f, c*f
	u[cInsS] += rf
	u[cIns] += rf
	u[cLost] += rf
	u[cInsU] += cf
	u[cIns] += cf
	u[cLost] += cf
}

// chargeCall charges processor p, VM processor k, with the current call's
// times (regular); f is the share of the call's time that counts as
// insufficient parallelism.
func (e *Engine) chargeCall(k, p int, f float64) {
	c, r := e.callT/e.vm.Power[k], e.retT/e.vm.Power[k]
	e.add(KUsr, p, c)
	if e.retT != 0 {
		e.add(KSys, p, r)
	}
	e.add(KInsSys, p, r*f)
	e.add(KInsUsr, p, c*f)
}

// mpsSync is MPSSynchronize (docs/model.md §6.2): every processor of the current
// VM waits for the latest one; the wait counts as synchronisation and as
// communication of the given kind.
func (e *Engine) mpsSync(k Kind) {
	if !e.skewed && e.clkU >= 0 {
		return // every clock is clkU already: nobody waits
	}
	if e.rec == nil {
		e.synchronize(k)
		return
	}
	e.syncing(true)
	clkU := e.clkU
	e.synchronize(k)
	e.syncing(false)
	e.rec.folded(e.clkU - clkU)
}

// synchronize is mpsSync when some clocks differ.
func (e *Engine) synchronize(k Kind) {
	vm := e.vm
	T := e.maxClock(vm)
	if vm.Uniform && (!e.cur.io || k == KIOComm) {
		e.syncAll(k, T)
		return
	}
	if e.coversRoot(vm) {
		e.syncClasses(k, T)
	} else {
		for _, p := range vm.Map {
			d := T - e.clock(p)
			if d == 0 {
				continue
			}
			e.addSynch(k, p, d)
			e.add(k, p, d)
		}
	}
	if vm.P() == e.L && (!e.cur.io || k == KIOComm) {
		// Every clock now equals T: fold the per-processor parts back into
		// the uniform clock.
		e.clkU = T
		clear(e.clk)
		e.skewed = false
	}
}

// syncClasses is the waits of synchronize on a VM of every root
// processor: each class waits for T at once; within an I/O block only
// processor 0's wait is also charged as time (add's filter).
func (e *Engine) syncClasses(k Kind, T float64) {
	filtered := e.cur.io && k != KIOComm
	d0 := T - e.clock(0)
	for _, c := range e.allClasses() {
		d := T - e.classClock(c)
		if d == 0 {
			continue
		}
		e.synchClass(k, c, d)
		if !filtered {
			e.chargeClass(e.cur, k, c, d)
		}
	}
	if filtered && d0 != 0 {
		e.add(k, 0, d0)
	}
}

// syncAll is mpsSync on a VM of every root processor outside an I/O
// block: the same charges as addSynch and add, straight into the counters,
// then every clock is T.
func (e *Engine) syncAll(k Kind, T float64) {
	ki := &kindInfo[k]
	synch := cClassSynch + cnt(kindClass(k))
	rows := e.classRows(e.cur)
	for c, clk := range e.clk {
		d := T - (e.clkU + clk)
		if d == 0 {
			continue
		}
		if e.rec != nil && !e.tallyClass(e.stateOf(k), int32(c), d) {
			e.recordClassAlone(k, int32(c), d)
		}
		r := &rows[c]
		r[cSynch] += d
		r[synch] += d
		for _, c := range ki.counters() {
			r[c] += d
		}
	}
	e.clkU = T
	clear(e.clk)
	e.skewed = false
}

// maxClock is max over the VM's processors of their clocks.
func (e *Engine) maxClock(vm *layout.VM) float64 {
	T := 0.0
	if e.coversRoot(vm) {
		for _, c := range e.clk {
			T = later(T, e.clkU+c)
		}
		return T
	}
	for _, p := range vm.Map {
		T = later(T, e.clock(p))
	}
	return T
}

// later is max(a, b) for times, which are never NaN nor −0: a plain
// comparison, much shorter in the hot loops than the builtin max.
func later(a, b float64) float64 {
	if a > b {
		return a
	}
	return b
}
