package engine

import "github.com/presage-dvm/presage/sim/layout"

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
	ref, err := e.handle(out, "RedRef")
	if err != nil {
		return err
	}
	typ, err := e.dec(in, "RedArrayType")
	if err != nil {
		return err
	}
	n, err := e.dec(in, "RedArrayLength")
	if err != nil {
		return err
	}
	loc, err := e.dec(in, "LocElmLength")
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
	e.reds[ref] = (loc + size) * n
	return nil
}

func crtrg(e *Engine) error {
	ref, err := e.handle(out, "RedGroupRef")
	if err != nil {
		return err
	}
	e.redGroups[ref] = &redGroup{vm: e.vm}
	return nil
}

func insred(e *Engine) error {
	g, err := e.redGroup()
	if err != nil {
		return err
	}
	ref, err := e.handle(in, "RedRef")
	if err != nil {
		return err
	}
	size, ok := e.reds[ref]
	if !ok {
		return e.errorf("reduction variable RedRef=%x was never created (crtred_)", ref)
	}
	g.totalSize += size
	return nil
}

func (e *Engine) redGroup() (*redGroup, error) {
	ref, err := e.handle(in, "RedGroupRef")
	if err != nil {
		return nil, err
	}
	g, ok := e.redGroups[ref]
	if !ok {
		return nil, e.errorf("reduction group RedGroupRef=%x was never created (crtrg_)", ref)
	}
	return g, nil
}

func strtrd(e *Engine) error {
	ref, err := e.handle(in, "RedGroupRef")
	if err != nil {
		return err
	}
	if _, ok := e.redGroups[ref]; !ok {
		return e.errorf("reduction group RedGroupRef=%x was never created (crtrg_)", ref)
	}
	e.mpsSync(KWaitReduct)
	e.pendRed[ref] = &pending{timeStart: e.clock(0)}
	e.cur.nop[classReduction]++
	return nil
}

func waitrd(e *Engine) error {
	ref, err := e.handle(in, "RedGroupRef")
	if err != nil {
		return err
	}
	g, ok := e.redGroups[ref]
	if !ok {
		return e.errorf("reduction group RedGroupRef=%x was never created (crtrg_)", ref)
	}
	rec, ok := e.pendRed[ref]
	if !ok {
		e.warn("waitrd_ without strtrd_: ignored")
		return nil
	}
	delete(e.pendRed, ref)
	end, err := e.reductionEnd(g)
	if err != nil {
		return err
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
	a := lp.OnArray
	P := e.vm.P()
	owner := func(i int) (bool, error) {
		b, err := a.Loc(i)
		if err != nil {
			return false, e.errorf("%v", err)
		}
		return b != nil, nil
	}
	for i := 1; i < P; i++ {
		if ok, err := owner(i); err != nil {
			return 0, err
		} else if ok {
			e.net.Send(i, 0, g.totalSize, e.clock(e.vm.Map[i]))
		}
	}
	end := 0.0
	for i := 1; i < P; i++ {
		if ok, _ := owner(i); ok {
			_, _, en := e.net.Send(0, i, g.totalSize, e.clock(e.vm.Map[0]))
			end = max(end, en)
		}
	}
	return end, nil
}

// waitRule charges the wait of a started operation on every processor of
// the current VM: a processor arriving before timeEnd waits for the rest
// and overlapped from timeStart to its arrival; a later one overlapped
// from timeStart to its arrival (MODEL.md §4.1, §4.2).
func (e *Engine) waitRule(timeStart, timeEnd float64, wait, overlap Kind) {
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
	ref, err := e.handle(in, "RedRef")
	if err != nil {
		return err
	}
	delete(e.reds, ref)
	return nil
}

func delrg(e *Engine) error {
	ref, err := e.handle(in, "RedGroupRef")
	if err != nil {
		return err
	}
	delete(e.redGroups, ref)
	delete(e.pendRed, ref)
	return nil
}
