package engine

// acrossState is what across_ stores for the ACROSS loop (docs/model.md §6.4,
// Appendix A).
type acrossState struct {
	oldG, newG *shadowGroup
	ts         int64
}

func across(e *Engine) error {
	if _, err := e.dec(in, kAcrossType); err != nil {
		return err
	}
	oldG, oldRef, err := e.shadowGroup(kOldShadowGroupRef)
	if err != nil {
		return err
	}
	newG, newRef, err := e.shadowGroup(kNewShadowGroupRef)
	if err != nil {
		return err
	}
	e.acr = &acrossState{oldG: oldG, newG: newG, ts: e.lastTS}
	e.mpsSync(KWaitShadow)
	e.cur.nop[classShadow]++
	if lp := e.curLoop; lp != nil {
		lp.across, lp.acrossOld, lp.acrossNew = true, oldRef, newRef
	}
	return nil
}

// msize is (Upper−Lower+1) div Step of block k in dimension d (1 beyond the
// block's rank).
func msize(m *loopMapping, k, d int) int64 {
	b := m.Blocks[k]
	if b == nil || d >= len(b) {
		return 1
	}
	st := b[d].Step
	if st < 0 {
		st = -st
	}
	if st == 0 {
		st = 1
	}
	return (b[d].Upper - b[d].Lower + 1) / st
}

// acrossPortion is A.1: before each portion every processor sends its
// boundary to its successors along the VM dimensions. With at most 4
// processors (rm = 0) every msize is 1 and the coordinates stay 0: this
// reproduces the original's synchronisation numbers on every machine.
func (e *Engine) acrossPortion(lp *loop) {
	m := lp.m
	vm := e.vm
	P := vm.P()
	R := vm.Rank()
	rm := 0
	if P > 4 && len(m.Blocks) > 0 && m.Blocks[0] != nil {
		rm = len(m.Blocks[0])
	}
	ms := func(i, d int) int64 {
		if d >= rm || i >= len(m.Blocks) {
			return 1
		}
		return msize(m, i, d)
	}
	ts := int64(0)
	if e.acr != nil {
		ts = e.acr.ts
	}
	for i := 0; i < P; i++ {
		a := int64(1)
		for d := 0; d < R; d++ {
			a *= ms(i, d)
		}
		for d := 0; d < R; d++ {
			st := vm.Stride(d)
			// With rm = 0 the original never fills in the grid coordinates:
			// every processor looks like processor 0, so the edge test only
			// checks the linear range (and i sends to i+1 across rows).
			n := 0
			if rm > 0 {
				n = vm.Coord(i, d)
			}
			inv := d < len(m.Inverted) && m.Inverted[d]
			q := -1
			if !inv && n != vm.Sizes[d]-1 && i+st < P {
				q = i + st
			} else if inv && n != 0 && i-st >= 0 {
				q = i - st
			}
			if q < 0 {
				continue
			}
			msz := ms(i, d)
			if msz == 0 {
				continue
			}
			pi, pq := vm.Map[i], vm.Map[q]
			_, begin, end := e.net.Send(i, q, a/msz*ts, e.clock(pi))
			e.recordMessage(classShadow, pi, pq, a/msz*ts, e.clock(pi), end)
			c := e.clock(pq)
			if c < end {
				e.add(KWaitShadow, pq, end-c)
				if c > begin {
					e.add(KShadowOverlap, pq, c-begin)
				}
			}
		}
	}
}

// acrossEnd is A.2, the end of an ACROSS loop.
func (e *Engine) acrossEnd(lp *loop) error {
	m := lp.m
	vm := e.vm
	T := e.maxClock(vm)
	for i := 0; i < vm.P(); i++ {
		p := vm.Map[i]
		e.addSynch(KWaitShadow, p, T-e.clock(p))
	}
	tc := e.callT / vm.Power[0] / float64(m.Size)
	e.pipeline(lp, tc)
	T2 := e.maxClock(vm)
	for i := 0; i < vm.P(); i++ {
		p := vm.Map[i]
		e.addVary(KWaitShadow, p, T2-e.clock(p))
	}
	e.distributeLoopTime(lp, nil, false)
	e.chargeStrided(m)
	e.loopSys()
	return nil
}
