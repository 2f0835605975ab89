package engine

import (
	"github.com/presage-dvm/presage/sim/internal/layout"
	"github.com/presage-dvm/presage/sim/internal/section"
)

// shadowGroup is a shadow-edge group: the cumulative dimension entries of
// its arrays and the accumulated transfer matrix (docs/model.md §4.2).
type shadowGroup struct {
	entries []shEntry
	t       *transfers
	tmpl    *layout.Template
	shared  bool // t is shared with the bound cache: copy before changing
}

// boundResult is a cached AddBound of one array into an empty group: the
// same insertion recurs every iteration of a program.
type boundResult struct {
	entries []shEntry
	t       *transfers
	tmpl    *layout.Template
}

type shEntry struct {
	d, vm, dir int   // array dimension, VM dimension (-1 none), direction
	lw, hw     int64 // low and high widths
}

func crtshg(e *Engine) error {
	ref, err := e.handle(out, kShadowGroupRef)
	if err != nil {
		return err
	}
	// A program creates and deletes a group at every iteration, and most
	// groups take their first array's transfers from the bound cache: a
	// deleted group is reused, and a new one shares the empty transfers
	// until an array is added (addBound copies shared transfers first).
	g := reuse(&e.freeSh)
	*g = shadowGroup{t: e.noEdges, shared: true}
	e.shGroups.set(ref, g)
	return nil
}

// reuse takes a deleted group off its free list, or makes a new one; the
// caller sets every field.
func reuse[T any](free *[]*T) *T {
	n := len(*free)
	if n == 0 {
		return new(T)
	}
	g := (*free)[n-1]
	*free = (*free)[:n-1]
	return g
}

func (e *Engine) shadowGroup(name key) (*shadowGroup, uint64, error) {
	ref, err := e.handle(in, name)
	if err != nil {
		return nil, 0, err
	}
	g, ok := e.shGroups.get(ref)
	if !ok {
		return nil, ref, e.errorf("shadow group %s=%x was never created (crtshg_)", name, ref)
	}
	return g, ref, nil
}

func (e *Engine) arrayByHeader(name key) (*array, error) {
	h, err := e.handle(in, name)
	if err != nil {
		return nil, err
	}
	a, ok := e.arrays.get(h)
	if !ok {
		return nil, e.errorf("array %s=%x was never created (crtda_)", name, h)
	}
	return a, nil
}

// inssh handles inssh_, insshd_, incsh_ and incshd_ (AddBound).
func inssh(e *Engine) error {
	g, _, err := e.shadowGroup(kShadowGroupRef)
	if err != nil {
		return err
	}
	a, err := e.arrayByHeader(kArrayHeader)
	if err != nil {
		return err
	}
	fn := e.op.p.site.kind
	corner := false
	if fn == fnInssh || fn == fnIncsh {
		full, err := e.dec(in, kFullShdSign)
		if err != nil {
			return err
		}
		corner = full == 1
	}
	var lw, hw []int64
	if fn == fnInssh || fn == fnInsshd {
		if lw, err = e.decArray(in, kLowShdWidthArray); err != nil {
			return err
		}
		if hw, err = e.decArray(in, kHiShdWidthArray); err != nil {
			return err
		}
	} else {
		if lw, hw, err = e.rangeWidths(a); err != nil {
			return err
		}
	}
	e.lastTS = a.TS
	if len(g.entries) != 0 || !g.t.empty() {
		return e.addBound(g, a, lw, hw, corner)
	}
	// The compiled parameters stand for the widths and the corner flag.
	key := boundKey{args: e.args(in), arr: a, epoch: e.epoch}
	if r := e.cachedBound(key); r != nil {
		// The cached entries are shared: appending to the full slice copies.
		g.entries = r.entries[:len(r.entries):len(r.entries)]
		g.t, g.tmpl, g.shared = r.t, r.tmpl, true
		return nil
	}
	if err := e.addBound(g, a, lw, hw, corner); err != nil {
		return err
	}
	if len(e.boundCache) > 1024 {
		clear(e.boundCache)
		e.recentBounds.reset()
	}
	g.t.sorted()
	r := &boundResult{entries: append([]shEntry(nil), g.entries...), t: g.t, tmpl: g.tmpl}
	e.boundCache[key] = r
	e.recentBounds.put(key, r)
	g.shared = true
	return nil
}

// cachedBound returns the bound cache's entry of key, or nil: its recent
// entries first, then the map.
func (e *Engine) cachedBound(key boundKey) *boundResult {
	if r, ok := e.recentBounds.get(key); ok {
		return r
	}
	r, ok := e.boundCache[key]
	if ok {
		e.recentBounds.put(key, r)
	}
	return r
}

// boundKey identifies identical insertions into an empty group in one
// layout epoch.
type boundKey struct {
	args  *args
	arr   *array
	epoch int
}

// rangeWidths derives the widths of incsh_/incshd_ from index ranges.
func (e *Engine) rangeWidths(a *array) (lw, hw []int64, err error) {
	var il, ll, ih, lh []int64
	for _, p := range []struct {
		name key
		dst  *[]int64
	}{{kInitLowShdIndex, &il}, {kLastLowShdIndex, &ll}, {kInitHiShdIndex, &ih}, {kLastHiShdIndex, &lh}} {
		if *p.dst, err = e.decArray(in, p.name); err != nil {
			return nil, nil, err
		}
	}
	width := func(init, last []int64, own []int64, d int) int64 {
		i, l := at(init, d), at(last, d)
		switch {
		case i != -1:
			return l - i + 1
		case l == -1:
			return at(own, d)
		}
		return l
	}
	n := len(a.Sizes)
	lw, hw = make([]int64, n), make([]int64, n)
	for d := 0; d < n; d++ {
		lw[d] = width(il, ll, a.Low, d)
		hw[d] = width(ih, lh, a.High, d)
	}
	return lw, hw, nil
}

func at(v []int64, i int) int64 {
	if i >= 0 && i < len(v) {
		return v[i]
	}
	return 0
}

// addBound appends the array's dimension entries to the group and adds its
// edge transfers, re-applying every entry of the group (docs/model.md §4.2).
func (e *Engine) addBound(g *shadowGroup, a *array, lw, hw []int64, corner bool) error {
	if !a.Aligned() || a.Replicated() {
		return nil
	}
	if g.tmpl != nil && g.tmpl != a.Tmpl {
		return e.errorf("arrays of one shadow group must be aligned on the same template")
	}
	g.tmpl = a.Tmpl
	if g.shared {
		g.t, g.shared = g.t.clone(), false
	}
	vm := a.VM()
	n := len(a.Sizes)
	lw2, hw2 := make([]int64, n), make([]int64, n)
	for d := 0; d < n; d++ {
		lw2[d], hw2[d] = at(lw, d), at(hw, d)
		if lw2[d] == -1 {
			lw2[d] = at(a.Low, d)
		}
		if hw2[d] == -1 {
			hw2[d] = at(a.High, d)
		}
		if lw2[d] < 0 || hw2[d] < 0 {
			return e.errorf("negative shadow width in dimension %d", d+1)
		}
	}
	for k := 0; k < vm.P(); k++ {
		b, err := a.Loc(k)
		if err != nil {
			return e.errorf("%v", err)
		}
		if b == nil {
			continue
		}
		for d := 0; d < n && d < len(b); d++ {
			if sz := b[d].Size(); sz > 0 && (sz < lw2[d] || sz < hw2[d]) {
				e.warn("local array size is less than shadow width")
			}
		}
	}
	added := 0
	for d := 0; d < n; d++ {
		v, dir := a.VMDim(d)
		g.entries = append(g.entries, shEntry{d: d, vm: v, dir: dir, lw: lw2[d], hw: hw2[d]})
		added++
	}
	cornerMode := corner && added > 1
	ts := a.TS
	g.t.grow(vm.P() * 2 * len(g.entries)) // an edge each way per entry
	for k := 0; k < vm.P(); k++ {
		b, _ := a.Loc(k)
		if b == nil {
			continue
		}
		p1 := vm.Map[k]
		for _, en := range g.entries {
			if en.d >= len(b) || en.vm < 0 {
				continue
			}
			s := b[en.d]
			rest := b.SizeWithout(en.d)
			if s.Lower > 0 && en.hw > 0 {
				if q, ok := vm.Shift(k, en.vm, -en.dir); ok {
					g.t.add(p1, vm.Map[q], rest*en.hw*ts)
				}
			}
			if s.Upper < a.Sizes[en.d]-1 && en.lw > 0 {
				if q, ok := vm.Shift(k, en.vm, en.dir); ok {
					g.t.add(p1, vm.Map[q], rest*en.lw*ts)
				}
			}
		}
		if cornerMode {
			e.corners(g, a, vm, k, b, ts)
		}
	}
	return nil
}

// corners adds the diagonal transfers of the first two entries of the group.
func (e *Engine) corners(g *shadowGroup, a *array, vm *layout.VM, k int, b section.Block, ts int64) {
	e0, e1 := g.entries[0], g.entries[1]
	if e0.d >= len(b) || e1.d >= len(b) || e0.vm < 0 || e1.vm < 0 {
		return
	}
	base := b.SizeWithout(e0.d, e1.d)
	left0, right0 := b[e0.d].Lower > 0, b[e0.d].Upper < a.Sizes[e0.d]-1
	left1, right1 := b[e1.d].Lower > 0, b[e1.d].Upper < a.Sizes[e1.d]-1
	diag := func(s0, s1 int, w0, w1 int64) {
		if w0 <= 0 || w1 <= 0 {
			return
		}
		q := k + s0*e0.dir*vm.Stride(e0.vm) + s1*e1.dir*vm.Stride(e1.vm)
		if q < 0 || q >= vm.P() {
			return
		}
		g.t.add(vm.Map[k], vm.Map[q], base*w0*w1*ts)
	}
	if left0 && left1 {
		diag(-1, -1, e0.hw, e1.hw)
	}
	if left0 && right1 {
		diag(-1, 1, e0.hw, e1.lw)
	}
	if right0 && left1 {
		diag(1, -1, e0.lw, e1.hw)
	}
	if right0 && right1 {
		diag(1, 1, e0.lw, e1.lw)
	}
}

func strtsh(e *Engine) error {
	g, ref, err := e.shadowGroup(kShadowGroupRef)
	if err != nil {
		return err
	}
	e.startShadow(g, ref, true)
	return nil
}

// startShadow is strtsh_ (divided) and exfrst_ (not divided).
func (e *Engine) startShadow(g *shadowGroup, ref uint64, divide bool) {
	cost := e.getCost(g.t, nil)
	e.mpsSync(KWaitShadow)
	start := e.clock(0)
	if divide {
		cost /= float64(e.vm.P())
	}
	e.pendSh.set(ref, pending{timeStart: start, timeEnd: start + cost})
	e.cur.nop[classShadow]++
}

func waitsh(e *Engine) error {
	ref, err := e.handle(in, kShadowGroupRef)
	if err != nil {
		return err
	}
	e.waitShadow(ref)
	return nil
}

func (e *Engine) waitShadow(ref uint64) {
	rec, ok := e.pendSh.get(ref)
	if !ok {
		e.warn("wait for a shadow exchange that was not started: ignored")
		return
	}
	e.pendSh.remove(ref)
	e.waitRule(rec.timeStart, rec.timeEnd, KWaitShadow, KShadowOverlap)
}

func sendsh(e *Engine) error {
	if _, err := e.handle(in, kShadowGroupRef); err != nil {
		return err
	}
	e.cur.nop[classShadow]++
	return nil
}

func exfrst(e *Engine) error {
	lp, err := e.loopRef()
	if err != nil {
		return err
	}
	g, ref, err := e.shadowGroup(kShadowGroupRef)
	if err != nil {
		return err
	}
	_ = lp
	e.startShadow(g, ref, false)
	return nil
}

func imlast(e *Engine) error {
	lp, err := e.loopRef()
	if err != nil {
		return err
	}
	ref, err := e.handle(in, kShadowGroupRef)
	if err != nil {
		return err
	}
	lp.imlast, lp.imlastRef = true, ref
	return nil
}

func delshg(e *Engine) error {
	ref, err := e.handle(in, kShadowGroupRef)
	if err != nil {
		return err
	}
	g, ok := e.shGroups.get(ref)
	if !ok {
		return nil
	}
	e.shGroups.remove(ref)
	// The ACROSS state keeps its groups past their deletion.
	if a := e.acr; a == nil || (a.oldG != g && a.newG != g) {
		e.freeSh = append(e.freeSh, g)
	}
	return nil
}
