package engine

import (
	"github.com/presage-dvm/presage/sim/internal/layout"
)

func crtda(e *Engine) error {
	handle, err := e.handle(out, kArrayHandlePtr)
	if err != nil {
		return err
	}
	header, err := e.handle(in, kArrayHeader)
	if err != nil {
		return err
	}
	ts, err := e.dec(in, kTypeSize)
	if err != nil {
		return err
	}
	sizes, err := e.sizeArray("array")
	if err != nil {
		return err
	}
	if ts < -MaxTypeSize || ts > MaxTypeSize {
		return e.errorf("array: TypeSize=%d: expected at most %d bytes an element", ts, MaxTypeSize)
	}
	low, err := e.optDecArray(in, kLowShdWidthArray)
	if err != nil {
		return err
	}
	high, err := e.optDecArray(in, kHiShdWidthArray)
	if err != nil {
		return err
	}
	if ts < 0 {
		ts = -ts
	}
	a := &array{Array: &layout.Array{Sizes: sizes, Low: low, High: high, TS: ts}, header: header}
	e.arrays.set(header, a)
	e.byHandle.set(handle, a)
	return nil
}

func delda(e *Engine) error {
	if _, err := e.handle(in, kArrayHeader); err != nil {
		return err
	}
	return nil
}

// alignTarget reads the pattern of align_/realn_ and returns the template
// and the rules of the array aligned on it.
func (e *Engine) alignTarget(a *array) (*layout.Template, []layout.Rule, *layout.Array, error) {
	var arrs [3][]int64
	for i, name := range alignArrays {
		v, err := e.decArray(in, name)
		if err != nil {
			return nil, nil, nil, err
		}
		arrs[i] = v
	}
	switch e.op.p.site.pattern {
	case "AMView":
		ref, err := e.handle(in, kPatternRef)
		if err != nil {
			return nil, nil, nil, err
		}
		t, ok := e.templates.get(ref)
		if !ok {
			return nil, nil, nil, e.errorf("template PatternRef=%x was never created (crtamv_)", ref)
		}
		return t, layout.AxisRules(arrs[0], arrs[1], arrs[2], nil), nil, nil
	case "DisArray":
		q, err := e.patternArray()
		if err != nil {
			return nil, nil, nil, err
		}
		own := layout.AxisRules(arrs[0], arrs[1], arrs[2], nil)
		return q.Tmpl, layout.Compose(q.Array, own), q.Array, nil
	}
	return nil, nil, nil, e.errorf("required parameter 'PatternRef' missing (no (AMView) or (DisArray) suffix)")
}

func align(e *Engine) error {
	a, err := e.arrayByHeader(kArrayHeader)
	if err != nil {
		return err
	}
	t, rules, q, err := e.alignTarget(a)
	if err != nil {
		return err
	}
	a.Align(t, rules, q)
	e.epoch++
	return nil
}

// realn re-aligns an array and charges the redistribution (docs/model.md §4.4).
func realn(e *Engine) error {
	a, err := e.arrayByHeader(kArrayHeader)
	if err != nil {
		return err
	}
	newSign, err := e.dec(in, kNewSign)
	if err != nil {
		return err
	}
	t, rules, q, err := e.alignTarget(a)
	if err != nil {
		return err
	}
	f := 0.0
	switch {
	case !a.Aligned():
		a.Align(t, rules, q)
	case newSign != 0:
		if q == nil {
			a.Align(t, rules, q)
		}
	default:
		old := *a.Array
		a.Align(t, rules, q)
		tr, err := e.update(&old, a.Array)
		if err != nil {
			return err
		}
		f = e.getCost(tr, nil)
	}
	e.epoch++
	e.mpsSync(KRedist)
	e.addAll(e.vm, KRedist, f)
	e.cur.nop[classRedist]++
	return nil
}

// update is the transfer matrix of a redistribution from old to new
// (docs/model.md §4.4, general rule; the replicated special cases of the
// original are approximated by the general rule).
func (e *Engine) update(old, nw *layout.Array) (*transfers, error) {
	tr := newTransfers(e.L)
	vm := old.VM()
	if vm == nil {
		return tr, nil
	}
	same := true
	for k := 0; k < vm.P(); k++ {
		b1, err := old.Loc(k)
		if err != nil {
			return nil, e.errorf("%v", err)
		}
		b2, err := nw.Loc(k)
		if err != nil {
			return nil, e.errorf("%v", err)
		}
		if !b1.Equal(b2) {
			same = false
			break
		}
	}
	if same || (old.Replicated() && old.Tmpl == nw.Tmpl) {
		return tr, nil
	}
	nvm := nw.VM()
	for k1 := 0; k1 < vm.P(); k1++ {
		b1, _ := old.Loc(k1)
		if b1 == nil {
			continue
		}
		for k2 := 0; nvm != nil && k2 < nvm.P(); k2++ {
			if k2 == k1 {
				continue
			}
			b2, _ := nw.Loc(k2)
			tr.add(vm.Map[k1], nvm.Map[k2], b1.IntersectSize(b2)*old.TS)
		}
	}
	return tr, nil
}
