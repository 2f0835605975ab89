package engine

import (
	"fmt"
	"strconv"

	"github.com/presage-dvm/presage/sim/layout"
	"github.com/presage-dvm/presage/sim/section"
)

// loop is a parallel loop with its flags (crtpl_ .. endpl_).
type loop struct {
	rank int
	m    *loopMapping // nil until mappl_

	imlast     bool
	imlastRef  uint64
	across     bool
	acrossOld  uint64
	acrossNew  uint64
	portion    section.Block // remembered dopl_ portion
	hasPortion bool
}

// loopMapping is the result of one mappl_: bounds, template and the
// iteration block of every processor, with how many processors share each
// block. Identical mappl_ calls share one mapping.
type loopMapping struct {
	*layout.Loop
	sizes []int64 // |B_k|
	cnt   []int   // #{j : B_j = B_k}
}

// OnArray etc. are reached through the embedded layout.Loop.

func crtpl(e *Engine) error {
	ref, err := e.handle(out, "LoopRef")
	if err != nil {
		return err
	}
	rank, err := e.dec(in, "Rank")
	if err != nil {
		return err
	}
	lp := &loop{rank: int(rank)}
	e.loops[ref] = lp
	e.curLoop = lp
	return nil
}

func (e *Engine) loopRef() (*loop, error) {
	ref, err := e.handle(in, "LoopRef")
	if err != nil {
		return nil, err
	}
	lp, ok := e.loops[ref]
	if !ok {
		return nil, e.errorf("parallel loop LoopRef=%x was never created (crtpl_)", ref)
	}
	return lp, nil
}

func mappl(e *Engine) error {
	lp, err := e.loopRef()
	if err != nil {
		return err
	}
	kind := e.call.Pattern
	var arrs [6][]int64
	for i, name := range []string{"AxisArray", "CoeffArray", "ConstArray", "InInitIndexArray", "InLastIndexArray", "InStepArray"} {
		if arrs[i], err = e.decArray(in, name); err != nil {
			return err
		}
	}
	var tmpl *layout.Template
	var on *array
	var key []byte
	switch kind {
	case "AMView":
		ref, err := e.handle(in, "PatternRef")
		if err != nil {
			return err
		}
		t, ok := e.templates[ref]
		if !ok {
			return e.errorf("template PatternRef=%x was never created (crtamv_)", ref)
		}
		tmpl = t
		key = strconv.AppendUint(append(key, 'T'), ref, 16)
	case "DisArray":
		a, err := e.patternArray()
		if err != nil {
			return err
		}
		on, tmpl = a, a.Tmpl
		key = strconv.AppendUint(append(key, 'A'), a.header, 16)
	default:
		return nil
	}
	key = strconv.AppendInt(append(key, '/'), int64(e.epoch), 10)
	key = strconv.AppendInt(append(key, ':'), int64(lp.rank), 10)
	for _, v := range arrs {
		key = append(key, '|')
		for _, x := range v {
			key = strconv.AppendInt(append(key, ','), x, 10)
		}
	}
	m, ok := e.loopCache[string(key)]
	if !ok {
		if m, err = e.mapLoop(lp.rank, tmpl, on, arrs); err != nil {
			return err
		}
		if len(e.loopCache) > 4096 {
			clear(e.loopCache)
		}
		e.loopCache[string(key)] = m
	}
	lp.m = m
	e.lastLoop = m
	e.curLoop = lp
	return nil
}

// patternArray finds the DisArray pattern by PatternRefPtr (its
// ArrayHeader), falling back to PatternRef as an ArrayHandlePtr (C-DVMH
// traces, where PatternRefPtr is a stack temporary).
func (e *Engine) patternArray() (*array, error) {
	ptrRef, err := e.handle(in, "PatternRefPtr")
	if err != nil {
		return nil, err
	}
	if a, ok := e.arrays[ptrRef]; ok && a.Aligned() {
		return a, nil
	}
	ref, err := e.handle(in, "PatternRef")
	if err != nil {
		return nil, err
	}
	if a, ok := e.byHandle[ref]; ok && a.Aligned() {
		return a, nil
	}
	if a, ok := e.arrays[ptrRef]; ok {
		return nil, e.errorf("pattern array PatternRefPtr=%x is not aligned", ptrRef)
	} else if a == nil {
		return nil, e.errorf("pattern array PatternRefPtr=%x (PatternRef=%x) was never created (crtda_)", ptrRef, ref)
	}
	return nil, nil
}

func (e *Engine) mapLoop(rank int, tmpl *layout.Template, on *array, arrs [6][]int64) (*loopMapping, error) {
	l := &layout.Loop{Rank: rank}
	l.SetBounds(arrs[3], arrs[4], arrs[5])
	base := func(d int) int64 {
		if d >= 0 && d < len(l.L) {
			return l.L[d]
		}
		return 0
	}
	rules := layout.AxisRules(arrs[0], arrs[1], arrs[2], base)
	var onA *layout.Array
	if on != nil {
		onA = on.Array
		rules = layout.Compose(on.Array, rules)
	}
	if err := l.Map(tmpl, rules, onA); err != nil {
		return nil, e.errorf("%v", err)
	}
	m := &loopMapping{Loop: l, sizes: make([]int64, len(l.Blocks)), cnt: make([]int, len(l.Blocks))}
	groups := map[string]int{}
	keys := make([]string, len(l.Blocks))
	for k, b := range l.Blocks {
		m.sizes[k] = layout.BlockSize(b)
		keys[k] = fmt.Sprint(b == nil, []section.Section(b))
		groups[keys[k]]++
	}
	for k := range l.Blocks {
		m.cnt[k] = groups[keys[k]]
	}
	return m, nil
}

// dopl distributes the loop's time over the processors by their iteration
// blocks (MODEL.md §5.8); it never runs RegularTime.
func dopl(e *Engine) error {
	lp, err := e.loopRef()
	if err != nil {
		return err
	}
	doPL, err := e.dec(out, "DoPL")
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
	dims, err := e.optDecArray(out, "Dim")
	if err != nil || dims == nil {
		return nil, false, err
	}
	lo, err := e.decArray(out, "Lower")
	if err != nil {
		return nil, false, err
	}
	hi, err := e.decArray(out, "Upper")
	if err != nil {
		return nil, false, err
	}
	st, err := e.decArray(out, "Step")
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
	for k, b := range m.Blocks {
		if m.sizes[k] == 0 || k >= vm.P() {
			continue
		}
		c := e.callT / vm.Power[k]
		var t float64
		if hadPrev {
			ps := portionSize(prev)
			if ps == 0 {
				continue
			}
			t = c * float64(common(prev, b)) / float64(ps)
		} else {
			t = c * float64(m.sizes[k]) / float64(m.Size)
		}
		p := vm.Map[k]
		e.add(KUsr, p, t)
		if n := m.cnt[k]; n > 1 {
			e.add(KInsUsr, p, t*float64(n-1)/float64(n))
		}
	}
}

// loopSys charges dopl_'s ret time: CPU_time_sys on every processor and the
// unscaled insufficient parallelism.
func (e *Engine) loopSys() {
	vm := e.vm
	P := float64(vm.P())
	ins := e.retT * (P - 1) / P
	if vm.Uniform && !e.cur.io {
		e.addAll(vm, KSys, e.retT/vm.Power[0])
		e.addAll(vm, KInsSys, ins)
		return
	}
	for k, p := range vm.Map {
		e.add(KSys, p, e.retT/vm.Power[k])
		e.add(KInsSys, p, ins)
	}
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

func endpl(e *Engine) error {
	lp, err := e.loopRef()
	if err != nil {
		return err
	}
	if lp.imlast {
		if _, ok := e.pendSh[lp.imlastRef]; ok {
			e.waitShadow(lp.imlastRef)
		}
		lp.imlast = false
	}
	if lp.across {
		lp.across = false
		delete(e.pendSh, lp.acrossOld)
	}
	lp.portion, lp.hasPortion = nil, false
	return nil
}
