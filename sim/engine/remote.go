package engine

import "github.com/presage-dvm/presage/sim/internal/section"

// buffer is a remote-access buffer: per absolute processor the start and
// end of its last load (docs/model.md §4.3).
type buffer struct {
	start, end []float64
}

func (e *Engine) bufferRef() (*buffer, error) {
	ref, err := e.handle(in, kBufferHeader)
	if err != nil {
		return nil, err
	}
	b, ok := e.buffers.get(ref)
	if !ok {
		return nil, e.errorf("remote buffer BufferHeader=%x was never created (crtrbl_/crtrbp_)", ref)
	}
	return b, nil
}

func crtrbl(e *Engine) error {
	r, err := e.arrayByHeader(kRemArrayHeader)
	if err != nil {
		return err
	}
	ref, err := e.handle(in, kBufferHeader)
	if err != nil {
		return err
	}
	lp, err := e.loopRef()
	if err != nil {
		return err
	}
	var arrs [3][]int64
	for i, name := range alignArrays {
		if arrs[i], err = e.decArray(in, name); err != nil {
			return err
		}
	}
	buf := &buffer{start: make([]float64, e.L), end: make([]float64, e.L)}
	e.buffers.set(ref, buf)
	e.cur.nop[classRemote]++
	if lp.m == nil || lp.m.Tmpl == nil || lp.m.Tmpl.VM == nil || !r.Aligned() {
		return nil
	}
	sec := make(section.Block, len(r.Sizes))
	for j, n := range r.Sizes {
		switch {
		case at(arrs[0], j) == -1:
			sec[j] = section.Section{Lower: 0, Upper: n - 1, Step: 1}
		case at(arrs[1], j) == 0:
			c := at(arrs[2], j)
			sec[j] = section.Section{Lower: c, Upper: c, Step: 1}
		default:
			sec[j] = section.Section{Lower: 0, Upper: 0, Step: 1}
		}
	}
	vm := lp.m.Tmpl.VM
	rvm := r.VM()
	tr := newTransfers(e.L)
	for k, b := range lp.m.Blocks {
		if lp.m.sizes[k] == 0 || b == nil || k >= vm.P() {
			continue
		}
		for q := 0; rvm != nil && q < rvm.P(); q++ {
			if rvm.Map[q] == vm.Map[k] {
				continue
			}
			lb, err := r.Loc(q)
			if err != nil {
				return e.errorf("%v", err)
			}
			tr.add(rvm.Map[q], vm.Map[k], lb.IntersectSize(sec)*r.TS)
		}
	}
	fl := &flagRec{stamp: make([]float64, e.L)}
	e.getCost(tr, fl)
	copy(buf.end, fl.stamp)
	return nil
}

func crtrbp(e *Engine) error {
	if _, err := e.handle(in, kRemArrayHeader); err != nil {
		return err
	}
	ref, err := e.handle(in, kBufferHeader)
	if err != nil {
		return err
	}
	e.buffers.set(ref, &buffer{start: make([]float64, e.L), end: make([]float64, e.L)})
	return nil
}

func loadrb(e *Engine) error {
	b, err := e.bufferRef()
	if err != nil {
		return err
	}
	for _, p := range e.vm.Map {
		c := e.clock(p)
		b.start[p] = c
		b.end[p] += c
	}
	e.cur.nop[classRemote]++
	return nil
}

func waitrb(e *Engine) error {
	b, err := e.bufferRef()
	if err != nil {
		return err
	}
	for _, p := range e.vm.Map {
		c := e.clock(p)
		if c < b.end[p] {
			e.add(KRemote, p, b.end[p]-c)
			e.add(KRemoteOverlap, p, c-b.start[p])
		} else {
			e.add(KRemoteOverlap, p, b.end[p]-b.start[p])
		}
	}
	e.cur.nop[classRemote]++
	return nil
}
