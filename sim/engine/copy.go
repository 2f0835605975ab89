package engine

import (
	"github.com/presage-dvm/presage/sim/internal/section"
)

// copySide is one side of arrcpy_/aarrcp_: a buffer, or an array section.
type copySide struct {
	arr              *array // nil for a buffer
	init, last, step []int64
}

// copyKeys are the parameters of one side of a copy.
type copyKeys struct{ buffer, header, init, last, step key }

var (
	fromKeys = copyKeys{kFromBufferPtr, kFromArrayHeader, kFromInitIndexArray, kFromLastIndexArray, kFromStepArray}
	toKeys   = copyKeys{kToBufferPtr, kToArrayHeader, kToInitIndexArray, kToLastIndexArray, kToStepArray}
)

func (e *Engine) copySide(k copyKeys) (copySide, error) {
	if e.has(in, k.buffer) {
		return copySide{}, nil
	}
	a, err := e.arrayByHeader(k.header)
	if err != nil {
		return copySide{}, err
	}
	s := copySide{arr: a}
	if s.init, err = e.decArray(in, k.init); err != nil {
		return s, err
	}
	if s.last, err = e.decArray(in, k.last); err != nil {
		return s, err
	}
	if s.step, err = e.decArray(in, k.step); err != nil {
		return s, err
	}
	return s, nil
}

// readSection normalises the source indices: Init −1 → whole dimension,
// Last clipped to the size.
func (s copySide) readSection() (section.Block, bool) {
	b := make(section.Block, len(s.arr.Sizes))
	for d, n := range s.arr.Sizes {
		i, l, st := at(s.init, d), at(s.last, d), at(s.step, d)
		if i == -1 {
			i, l, st = 0, n-1, 1
		}
		l = min(l, n-1)
		if i < 0 || i > n-1 || l < 0 {
			return nil, false
		}
		if st <= 0 {
			if st == 0 {
				st = 1
			}
			i, l, st = min(i, l), max(i, l), -st
		}
		b[d] = section.Section{Lower: i, Upper: l, Step: st}
	}
	return b, true
}

// rawSection is the section as written in the call; a −1 index gives a
// section of size 0.
func (s copySide) rawSection() section.Block {
	b := make(section.Block, len(s.arr.Sizes))
	for d := range s.arr.Sizes {
		i, l, st := at(s.init, d), at(s.last, d), at(s.step, d)
		if st == 0 {
			st = 1
		}
		if st < 0 {
			i, l, st = min(i, l), max(i, l), -st
		}
		b[d] = section.Section{Lower: i, Upper: l, Step: st}
	}
	return b
}

// writeSection is the destination section in raw indices (Init −1 → whole
// dimension); a −1 index left makes its size 0.
func (s copySide) writeSection() section.Block {
	b := make(section.Block, len(s.arr.Sizes))
	for d, n := range s.arr.Sizes {
		i, l, st := at(s.init, d), at(s.last, d), at(s.step, d)
		if i == -1 {
			i, l, st = 0, n-1, 1
		}
		if st == 0 {
			st = 1
		}
		if st < 0 {
			i, l, st = min(i, l), max(i, l), -st
		}
		b[d] = section.Section{Lower: i, Upper: l, Step: st}
	}
	return b
}

// copyCost computes the transfer cost of a copy (docs/model.md §4.3) and
// reports whether it synchronises (everything but buffer → array).
func (e *Engine) copyCost(from, to copySide, f *flagRec) (float64, bool, error) {
	switch {
	case from.arr == nil:
		return 0, false, nil
	case from.arr.Replicated():
		return 0, true, nil
	}
	rd, ok := from.readSection()
	if !ok {
		return 0, false, e.errorf("wrong call ArrayCopy: source index outside the array")
	}
	tr := newTransfers(e.L)
	vm := from.arr.VM()
	ts := from.arr.TS
	switch {
	case to.arr == nil:
		// Distributed → buffer: only the first element is read (quirk).
		first := make(section.Block, len(rd))
		for d, s := range rd {
			first[d] = section.Section{Lower: s.Lower, Upper: s.Lower, Step: 1}
		}
		var owners []int // of the first element
		for q := 0; q < vm.P(); q++ {
			if b, _ := from.arr.Loc(q); b.IntersectSize(first) > 0 {
				owners = append(owners, q)
			}
		}
		for k1 := 0; k1 < vm.P(); k1++ {
			for _, q := range owners {
				if q != k1 {
					tr.add(vm.Map[q], vm.Map[k1], ts)
				}
			}
		}
	case to.arr.Replicated():
		for k1 := 0; k1 < vm.P(); k1++ {
			b1, _ := from.arr.Loc(k1)
			x := b1.Intersect(rd)
			if x == nil {
				continue
			}
			for k2 := 0; k2 < vm.P(); k2++ {
				if k2 == k1 {
					continue
				}
				b2, _ := to.arr.Loc(k2)
				if b2 == nil || b2.Intersect(x) == nil {
					tr.add(vm.Map[k1], vm.Map[k2], x.Size()*ts)
				}
			}
		}
	default:
		wr := to.writeSection()
		for k1 := 0; k1 < vm.P(); k1++ {
			bt, _ := to.arr.Loc(k1)
			w := bt.Intersect(wr)
			if w == nil {
				continue
			}
			src := make(section.Block, len(from.arr.Sizes))
			for i := range src {
				src[i] = sourceRange(from, to, i, w)
			}
			for q := 0; q < vm.P(); q++ {
				if q == k1 {
					continue
				}
				b, _ := from.arr.Loc(q)
				tr.add(vm.Map[q], vm.Map[k1], b.IntersectSize(src)*ts)
			}
		}
	}
	return e.getCost(tr, f), true, nil
}

// sourceRange is the source section read for destination part w along
// dimension i.
func sourceRange(from, to copySide, i int, w section.Block) section.Section {
	ss, ds := at(from.step, i), at(to.step, i)
	si, di := at(from.init, i), at(to.init, i)
	if si == -1 {
		si, ss = 0, 1
	}
	if di == -1 {
		di, ds = 0, 1
	}
	if ds == 0 {
		ds = 1
	}
	if ss == 0 {
		ss = 1
	}
	x1 := si
	if ss <= 0 {
		x1 = at(from.last, i)
	}
	var wl, wu int64
	if i < len(w) {
		wl, wu = w[i].Lower, w[i].Upper
	}
	off := wl - di
	if ds < 0 {
		off = at(to.last, i)
	}
	ratio := ss / ds
	if ratio < 0 {
		ratio = -ratio
	}
	x1 += off * ratio
	x2 := x1 + (wu-wl)*ratio
	st := ss
	if st < 0 {
		st = -st
	}
	return section.Section{Lower: min(x1, x2), Upper: max(x1, x2), Step: st}
}

// copyCPU charges the CPU share of a synchronous copy.
func (e *Engine) copyCPU(from, to copySide) {
	if to.arr != nil {
		wr := to.writeSection()
		n := wr.Size()
		for _, s := range wr {
			if s.Lower == -1 || s.Upper == -1 {
				n = 0
			}
		}
		vm := to.arr.VM()
		if vm == nil {
			vm = e.vm
		}
		rep := to.arr.Replicated()
		seen := false
		for k, p := range vm.Map {
			c := e.callT / vm.Power[k]
			b, _ := to.arr.Loc(k)
			if n != 0 {
				e.add(KUsr, p, c*float64(b.IntersectSize(wr))/float64(n))
			} else if rep {
				e.add(KUsr, p, c)
			}
			if rep && b != nil {
				if seen {
					e.add(KInsUsr, p, c)
				}
				seen = true
			}
		}
		return
	}
	if from.arr == nil {
		return
	}
	// The source section in raw indices: a −1 index (whole dimension)
	// makes its size 0 and the share vanishes, as in the original.
	rd := from.rawSection()
	n := rd.Size()
	vm := from.arr.VM()
	if n == 0 || vm == nil {
		return
	}
	for k, p := range vm.Map {
		b, _ := from.arr.Loc(k)
		e.add(KUsr, p, e.callT/vm.Power[k]*float64(b.IntersectSize(rd))/float64(n))
	}
}

func arrcpy(e *Engine) error {
	from, err := e.copySide(fromKeys)
	if err != nil {
		return err
	}
	to, err := e.copySide(toKeys)
	if err != nil {
		return err
	}
	if from.arr == nil && to.arr == nil {
		return nil
	}
	f, sync, err := e.copyCost(from, to, nil)
	if err != nil {
		return err
	}
	e.copyCPU(from, to)
	e.chargeIOCopy(from, to)
	if sync {
		e.mpsSync(KRemote)
		e.addAll(e.vm, KRemote, f)
		e.cur.nop[classRemote]++
	}
	return nil
}

func aarrcp(e *Engine) error {
	from, err := e.copySide(fromKeys)
	if err != nil {
		return err
	}
	to, err := e.copySide(toKeys)
	if err != nil {
		return err
	}
	ref, err := e.handle(in, kCopyFlagPtr)
	if err != nil {
		return err
	}
	fl := &flagRec{stamp: make([]float64, e.L)}
	e.flags.set(ref, fl)
	f, _, err := e.copyCost(from, to, fl)
	if err != nil {
		return err
	}
	fl.timeStart = e.clock(0)
	fl.timeEnd = fl.timeStart + f
	e.cur.nop[classRemote]++
	return nil
}

func waitcp(e *Engine) error {
	ref, err := e.handle(in, kCopyFlagPtr)
	if err != nil {
		return err
	}
	fl, ok := e.flags.get(ref)
	if !ok {
		return nil
	}
	e.flags.remove(ref)
	for _, p := range e.vm.Map {
		c, s := e.clock(p), fl.stamp[p]
		if s > 0 && c < fl.timeStart+s {
			e.add(KRemote, p, max(fl.timeStart+s-c, s))
			if c < fl.timeStart {
				e.procRow(e.cur, p)[cSynch] += fl.timeStart - c
			}
		}
	}
	e.cur.nop[classRemote]++
	return nil
}
