package engine

import "github.com/presage-dvm/presage/sim/result"

// interval is one node of the interval tree with its per-processor
// counters. Charges that fall on every root processor alike are kept once
// in uni; own holds the per-class parts (allocated on first use), so the
// value of processor p of class c is uni + own[c]. idle and imb are set
// per class at every exit.
type interval struct {
	id, level int
	typ       result.IntervalType
	count     int64
	line      int
	file      string
	expr      *int64
	parent    *interval
	children  []*interval
	uni       counters
	own       []counters
	idle, imb []float64
	nop       [result.NumOpClasses]float64
	io        bool // between biof_ and eiof_
	perClass  bool // listed in Engine.perClass
}

// classRows returns the per-class counters of iv, allocating them on
// first use.
func (e *Engine) classRows(iv *interval) []counters {
	if iv.own == nil {
		iv.own = make([]counters, e.classes.count())
		e.listPerClass(iv)
		e.grow(int64(e.classes.count()))
	}
	return iv.own
}

// procRow returns the counters of processor p alone: p leaves its class
// first, since the caller charges it only.
func (e *Engine) procRow(iv *interval, p int) *counters {
	c := e.isolate(p)
	return &e.classRows(iv)[c]
}

func (e *Engine) listPerClass(iv *interval) {
	if !iv.perClass {
		iv.perClass = true
		e.perClass = append(e.perClass, iv)
	}
}

// classValue is counter c of the processors of class k.
func (iv *interval) classValue(c cnt, k int32) float64 {
	if iv.own == nil {
		return iv.uni[c]
	}
	return iv.uni[c] + iv.own[k][c]
}

// enter makes the child of cur with the given identity current, creating it
// on first entry (docs/model.md §7.1).
func (e *Engine) enter(typ result.IntervalType, line int, file string, expr *int64) error {
	if e.level >= MaxDepth {
		return e.errorf("interval nested %d deep: at most %d (intervals opened and never closed?)", e.level+1, MaxDepth)
	}
	e.level++
	for _, c := range e.cur.children {
		if c.typ == typ && c.line == line && c.file == file && sameExpr(c.expr, expr) {
			c.count++
			e.cur = c
			return nil
		}
	}
	iv := &interval{id: len(e.ivs) + 1, level: e.level, typ: typ, count: 1, line: line, file: file, expr: expr, parent: e.cur}
	e.cur.children = append(e.cur.children, iv)
	e.ivs = append(e.ivs, iv)
	e.cur = iv
	return nil
}

func sameExpr(a, b *int64) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}

// leave computes the idle and imbalance of the current interval and makes
// its parent current. It reports false at the root.
func (e *Engine) leave() bool {
	if e.cur.parent == nil {
		return false
	}
	e.idleImbalance(e.cur)
	e.cur = e.cur.parent
	e.level--
	return true
}

// idleImbalance is CalcIdleAndImbalance over the current VM's processors.
// On a VM of every root processor it visits each class once; otherwise
// each processor of the VM is set apart from the rest of its class.
func (e *Engine) idleImbalance(iv *interval) {
	vm := e.vm
	var classes []int32
	if e.coversRoot(vm) {
		classes = e.allClasses()
	} else {
		classes = make([]int32, len(vm.Map))
		for k, p := range vm.Map {
			classes[k] = e.isolate(p)
		}
	}
	if iv.idle == nil {
		iv.idle = make([]float64, e.classes.count())
		iv.imb = make([]float64, e.classes.count())
		e.listPerClass(iv)
	}
	uni, own := &iv.uni, iv.own
	if own == nil { // every class has uni's values (classValue)
		ex, u, s := uni[cExec], uni[cUsr], uni[cSys]
		for _, c := range classes {
			iv.idle[c], iv.imb[c] = ex-ex, u+s-u-s // as below, for NaNs and rounding
		}
		return
	}
	var maxE, maxU, maxS float64
	for k, c := range classes {
		o := &own[c]
		ex, u, s := uni[cExec]+o[cExec], uni[cUsr]+o[cUsr], uni[cSys]+o[cSys]
		if k == 0 || ex > maxE {
			maxE = ex
		}
		if k == 0 || u > maxU {
			maxU = u
		}
		if k == 0 || s > maxS {
			maxS = s
		}
	}
	idle, imb := iv.idle, iv.imb
	for _, c := range classes {
		o := &own[c]
		idle[c] = maxE - (uni[cExec] + o[cExec])
		imb[c] = maxU + maxS - (uni[cUsr] + o[cUsr]) - (uni[cSys] + o[cSys])
	}
}
