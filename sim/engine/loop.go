package engine

import (
	"encoding/binary"

	"github.com/presage-dvm/presage/sim/internal/layout"
	"github.com/presage-dvm/presage/sim/internal/section"
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

// loopKey identifies identical mappl_ calls in one layout epoch by their
// compiled parameters. It holds no string, so that the lookup every mappl_
// makes hashes a few words (a string field costs a hash call of its own).
type loopKey struct {
	args  *args
	tmpl  *layout.Template
	on    *array
	epoch int
	rank  int
}

// loopIndexKey identifies the mappl_ calls of one layout epoch with equal
// index arrays (indexArraysKey): the executions of a loop, whose calls
// differ by their LoopRef.
type loopIndexKey struct {
	index string
	tmpl  *layout.Template
	on    *array
	epoch int
	rank  int
}

// loopMapping is the result of one mappl_: bounds, template and the
// iteration block of every processor, with how many processors share each
// block (layout.Loop.Sharers). Identical mappl_ calls share one mapping.
type loopMapping struct {
	*layout.Loop
	sizes []int64 // |B_k|
	// contiguous is the loop dimension along the pattern array's
	// contiguous dimension, -1 for none or a template pattern
	// (chargeStrided).
	contiguous int
	// byShare groups the processors by their dopl_ charge (dopl.go).
	byShare *iterationShares
}

// OnArray etc. are reached through the embedded layout.Loop.

func crtpl(e *Engine) error {
	ref, err := e.handle(out, kLoopRef)
	if err != nil {
		return err
	}
	rank, err := e.dec(in, kRank)
	if err != nil {
		return err
	}
	if err := e.checkRank("parallel loop", rank); err != nil {
		return err
	}
	// The run-time reuses a loop's handle once the loop is gone (a
	// program's loop gets the same LoopRef every iteration): the loop it
	// named is made anew in place, not allocated again (nothing else
	// holds it but curLoop, set to it below).
	lp, _ := e.loops.get(ref)
	if lp == nil {
		lp = &loop{}
		e.loops.set(ref, lp)
	}
	*lp = loop{rank: int(rank)}
	e.curLoop = lp
	return nil
}

func (e *Engine) loopRef() (*loop, error) {
	ref, err := e.handle(in, kLoopRef)
	if err != nil {
		return nil, err
	}
	lp, ok := e.loops.get(ref)
	if !ok {
		return nil, e.errorf("parallel loop LoopRef=%x was never created (crtpl_)", ref)
	}
	return lp, nil
}

var mapplArrays = [6]key{kAxisArray, kCoeffArray, kConstArray, kInInitIndexArray, kInLastIndexArray, kInStepArray}

func mappl(e *Engine) error {
	lp, err := e.loopRef()
	if err != nil {
		return err
	}
	var tmpl *layout.Template
	var on *array
	switch e.op.p.site.pattern {
	case "AMView":
		ref, err := e.handle(in, kPatternRef)
		if err != nil {
			return err
		}
		t, ok := e.templates.get(ref)
		if !ok {
			return e.errorf("template PatternRef=%x was never created (crtamv_)", ref)
		}
		tmpl = t
	case "DisArray":
		a, err := e.patternArray()
		if err != nil {
			return err
		}
		on, tmpl = a, a.Tmpl
	default:
		return nil
	}
	m, err := e.loopMappingOf(lp.rank, tmpl, on)
	if err != nil {
		return err
	}
	lp.m = m
	e.lastLoop = m
	e.curLoop = lp
	return nil
}

// loopMappingOf returns the mapping of the current mappl_ call's loop,
// made once. Identical calls share their compiled parameters, which key
// the cache first (its recent entries, then the map); but a loop is
// mapped anew at each of its executions with a new LoopRef, so the index
// arrays key it too.
func (e *Engine) loopMappingOf(rank int, tmpl *layout.Template, on *array) (*loopMapping, error) {
	key := loopKey{args: e.args(in), tmpl: tmpl, on: on, epoch: e.epoch, rank: rank}
	if m, ok := e.recentLoops.get(key); ok {
		return m, nil
	}
	if m, ok := e.loopCache[key]; ok {
		e.recentLoops.put(key, m)
		return m, nil
	}
	var arrs [6][]int64
	for i, k := range mapplArrays {
		var err error
		if arrs[i], err = e.decArray(in, k); err != nil {
			return nil, err
		}
	}
	e.keyBuf = indexArraysKey(e.keyBuf[:0], &arrs)
	byIndex := loopIndexKey{index: string(e.keyBuf), tmpl: tmpl, on: on, epoch: e.epoch, rank: rank}
	m, ok := e.loopIndex[byIndex]
	if !ok {
		var err error
		if m, err = e.mapLoop(rank, tmpl, on, arrs); err != nil {
			return nil, err
		}
	}
	// The cache holds a block per processor of every mapping: it is
	// emptied at 4,096 entries, or earlier on grids of more than 1,024
	// processors, when its blocks would pass maxCachedBlocks, so its memory
	// does not grow with the trace's loops times the grid.
	if n := len(e.loopCache) + len(e.loopIndex); n > 4096 || (n+2)*e.L > maxCachedBlocks {
		clear(e.loopCache)
		clear(e.loopIndex)
		e.recentLoops.reset()
	}
	e.loopCache[key], e.loopIndex[byIndex] = m, m
	e.recentLoops.put(key, m)
	return m, nil
}

// patternArray finds the DisArray pattern by PatternRefPtr (its
// ArrayHeader), falling back to PatternRef as an ArrayHandlePtr (C-DVMH
// traces, where PatternRefPtr is a stack temporary).
func (e *Engine) patternArray() (*array, error) {
	ptrRef, err := e.handle(in, kPatternRefPtr)
	if err != nil {
		return nil, err
	}
	if a, ok := e.arrays.get(ptrRef); ok && a.Aligned() {
		return a, nil
	}
	ref, err := e.handle(in, kPatternRef)
	if err != nil {
		return nil, err
	}
	if a, ok := e.byHandle.get(ref); ok && a.Aligned() {
		return a, nil
	}
	if a, ok := e.arrays.get(ptrRef); ok {
		return nil, e.errorf("pattern array PatternRefPtr=%x is not aligned", ptrRef)
	} else if a == nil {
		return nil, e.errorf("pattern array PatternRefPtr=%x (PatternRef=%x) was never created (crtda_)", ptrRef, ref)
	}
	return nil, nil
}

// indexArraysKey appends the index arrays of a mappl_ to b, each with
// its length.
func indexArraysKey(b []byte, arrs *[6][]int64) []byte {
	for _, a := range arrs {
		b = binary.AppendUvarint(b, uint64(len(a)))
		for _, v := range a {
			b = binary.AppendVarint(b, v)
		}
	}
	return b
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
	m := &loopMapping{Loop: l, sizes: make([]int64, len(l.Blocks)), contiguous: -1}
	if on != nil {
		m.contiguous = contiguousLoopDim(arrs[0], arrs[1])
	}
	for k, b := range l.Blocks {
		m.sizes[k] = layout.BlockSize(b)
	}
	return m, nil
}

func endpl(e *Engine) error {
	lp, err := e.loopRef()
	if err != nil {
		return err
	}
	if lp.imlast {
		if e.pendSh.has(lp.imlastRef) {
			e.waitShadow(lp.imlastRef)
		}
		lp.imlast = false
	}
	if lp.across {
		lp.across = false
		e.pendSh.remove(lp.acrossOld)
	}
	lp.portion, lp.hasPortion = nil, false
	return nil
}
