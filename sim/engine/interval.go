package engine

import "github.com/presage-dvm/presage/sim/result"

// interval is one node of the interval tree with its per-processor
// counters. Charges that fall on every root processor alike are kept once
// in uni; own holds the per-processor parts (allocated on first use), so a
// processor's value is uni + own[p].
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
}

func (iv *interval) row(p, L int) *counters {
	return &iv.rows(L)[p]
}

// rows returns the per-processor counters, allocating them on first use.
func (iv *interval) rows(L int) []counters {
	if iv.own == nil {
		iv.own = make([]counters, L)
	}
	return iv.own
}

// value is counter c of processor p.
func (iv *interval) value(c cnt, p int) float64 {
	if iv.own == nil {
		return iv.uni[c]
	}
	return iv.uni[c] + iv.own[p][c]
}

// enter makes the child of cur with the given identity current, creating it
// on first entry (docs/model.md §7.1).
func (e *Engine) enter(typ result.IntervalType, line int, file string, expr *int64) {
	e.level++
	for _, c := range e.cur.children {
		if c.typ == typ && c.line == line && c.file == file && sameExpr(c.expr, expr) {
			c.count++
			e.cur = c
			return
		}
	}
	iv := &interval{id: len(e.ivs) + 1, level: e.level, typ: typ, count: 1, line: line, file: file, expr: expr, parent: e.cur}
	e.cur.children = append(e.cur.children, iv)
	e.ivs = append(e.ivs, iv)
	e.cur = iv
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
func (e *Engine) idleImbalance(iv *interval) {
	if iv.idle == nil {
		iv.idle = make([]float64, e.L)
		iv.imb = make([]float64, e.L)
	}
	vm := e.vm
	var maxE, maxU, maxS float64
	for k, p := range vm.Map {
		ex, u, s := iv.value(cExec, p), iv.value(cUsr, p), iv.value(cSys, p)
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
	for _, p := range vm.Map {
		iv.idle[p] = maxE - iv.value(cExec, p)
		iv.imb[p] = maxU + maxS - iv.value(cUsr, p) - iv.value(cSys, p)
	}
}
