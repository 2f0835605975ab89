package layout

import "github.com/presage-dvm/presage/sim/internal/section"

// Loop is a parallel loop (crtpl_) and its mapping (mappl_).
type Loop struct {
	Rank     int
	L, H, S  []int64 // per loop dimension, after the inversion rule
	Inverted []bool
	Size     int64 // LoopSZ
	Tmpl     *Template
	Rules    []Rule // per template dimension
	Mapped   bool
	// OnArray is the pattern array of a DisArray mapping (nil for AMView).
	OnArray *Array
	Blocks  []section.Block // per processor of the template's VM
	// Sharers counts, per processor, the processors whose block equals
	// its own (the processors without a block share nil).
	Sharers []int
}

// SetBounds records mappl_'s index arrays (docs/model.md §5.6).
func (l *Loop) SetBounds(init, last, step []int64) {
	n := l.Rank
	l.L, l.H, l.S = make([]int64, n), make([]int64, n), make([]int64, n)
	l.Inverted = make([]bool, n)
	l.Size = 1
	for d := 0; d < n; d++ {
		in, la, st := at(init, d), at(last, d), at(step, d)
		if st >= 0 {
			l.L[d], l.H[d], l.S[d] = in, la, st
		} else {
			l.Inverted[d] = true
			l.H[d], l.S[d] = in, -st
			x := (in - la) % st
			if x != 0 {
				l.L[d] = la + st - x
			} else {
				l.L[d] = la
			}
		}
		if l.S[d] == 0 {
			l.Size = 0
			continue
		}
		l.Size *= (l.H[d] - l.L[d] + l.S[d]) / l.S[d]
	}
}

// Map places the loop on template t with rules and computes every
// processor's iteration block, and how many processors share each.
//
// A processor's block depends on each distributed VM dimension only
// through its coordinate there, so what every coordinate of every VM
// dimension does to the block is found first (axisEffects), and each
// processor's block is put together from its coordinates' effects.
func (l *Loop) Map(t *Template, rules []Rule, on *Array) error {
	l.Tmpl, l.Rules, l.OnArray, l.Mapped = t, rules, on, true
	l.Blocks, l.Sharers = nil, nil
	if t == nil || t.VM == nil {
		return nil
	}
	base, axes, err := l.axisEffects()
	if err != nil {
		return err
	}
	P := t.VM.P()
	l.Blocks = make([]section.Block, P)
	slab := make([]section.Section, P*l.Rank)
	keys := make([]int64, P) // equal keys, equal blocks; -1 for no block
	ids := make([]int32, l.Rank)
	for k := range P {
		l.Blocks[k], keys[k] = l.assemble(k, &base, axes, ids, slab[k*l.Rank:(k+1)*l.Rank:(k+1)*l.Rank])
	}
	span := int64(1)
	for _, secs := range base.sections {
		span *= int64(len(secs))
	}
	l.Sharers = countEqual(keys, span)
	return nil
}

// assemble puts VM processor k's block together in b from the effects
// of its coordinates, and returns it, or nil, with its key: the number
// of its sections in mixed radix, −1 for nil. ids is scratch space.
func (l *Loop) assemble(k int, base *loopSections, axes [][]axisEffect, ids []int32, b section.Block) (section.Block, int64) {
	copy(ids, base.ids)
	for i, ax := range axes {
		if ax == nil {
			continue
		}
		switch e := ax[l.Tmpl.VM.Coord(k, i)]; {
		case e.empty:
			return nil, -1
		case e.dim >= 0:
			ids[e.dim] = e.id
		}
	}
	key := int64(0)
	for d, id := range ids {
		if base.sections[d][id].Step == 0 {
			return nil, -1 // the dimension's iterations are out of range
		}
		b[d] = base.sections[d][id]
		key = key*int64(len(base.sections[d])) + int64(id)
	}
	return b, key
}

// countEqual returns, for every key (from −1 to span−1), how many keys
// equal it: in an array over the span when it is not much larger than
// the keys, else in a map.
func countEqual(keys []int64, span int64) []int {
	out := make([]int, len(keys))
	if span <= 4*int64(len(keys))+64 {
		count := make([]int32, span+1)
		for _, k := range keys {
			count[k+1]++
		}
		for i, k := range keys {
			out[i] = int(count[k+1])
		}
		return out
	}
	count := make(map[int64]int, len(keys))
	for _, k := range keys {
		count[k]++
	}
	for i, k := range keys {
		out[i] = count[k]
	}
	return out
}

// axisEffect is what one coordinate of a distributed VM dimension does to
// a processor's block: empty it, or set loop dimension dim to the
// section numbered id in its list, or nothing (dim −1).
type axisEffect struct {
	empty bool
	dim   int
	id    int32
}

// loopSections lists, per loop dimension, the distinct sections a block
// may have there, after the step rounding (docs/model.md §5.7); a
// section of Step 0 stands for a dimension left without iterations.
// ids holds, per dimension, the section of the loop's own bounds.
type loopSections struct {
	sections [][]section.Section
	ids      []int32
}

// add returns the number of section s of loop dimension d, rounded to
// the loop's step, listing it if new.
func (ls *loopSections) add(l *Loop, d int, lo, hi int64) int32 {
	s := l.S[d]
	if s <= 0 {
		s = 1
	}
	lo, hi = s*ceilDiv(lo, s), s*(hi/s)
	sec := section.Section{Lower: lo, Upper: hi, Step: s}
	if lo > hi || lo < 0 {
		sec = section.Section{}
	}
	for id, x := range ls.sections[d] {
		if x == sec {
			return int32(id)
		}
	}
	ls.sections[d] = append(ls.sections[d], sec)
	return int32(len(ls.sections[d]) - 1)
}

// axisEffects returns the sections of every loop dimension and the
// effect of every coordinate of every distributed VM dimension (nil for
// a replicated one).
func (l *Loop) axisEffects() (loopSections, [][]axisEffect, error) {
	t := l.Tmpl
	ls := loopSections{sections: make([][]section.Section, l.Rank), ids: make([]int32, l.Rank)}
	for d := range l.Rank {
		ls.ids[d] = ls.add(l, d, l.L[d], l.H[d])
	}
	axes := make([][]axisEffect, len(t.Axis))
	for i, ax := range t.Axis {
		if ax == 0 {
			continue
		}
		ranges, err := t.LoopRanges(i)
		if err != nil {
			return ls, nil, err
		}
		axes[i] = make([]axisEffect, len(ranges))
		for c, rg := range ranges {
			axes[i][c] = l.effectOf(ax, rg, &ls)
		}
	}
	return ls, axes, nil
}

// effectOf is the effect on a block of the template range rg of template
// dimension ax (1-based) under the loop's rules.
func (l *Loop) effectOf(ax int, rg Range, ls *loopSections) axisEffect {
	none := axisEffect{dim: -1}
	if rg.Lo > rg.Hi {
		return axisEffect{empty: true}
	}
	if ax-1 >= len(l.Rules) {
		return none
	}
	r := l.Rules[ax-1]
	switch r.Kind {
	case Normal:
		if r.Dim >= l.Rank {
			return none
		}
		l2, h2, ok := section.Transform(rg.Lo, rg.Hi, r.A, r.B, l.H[r.Dim]-l.L[r.Dim]+1)
		if !ok {
			return axisEffect{empty: true}
		}
		return axisEffect{dim: r.Dim, id: ls.add(l, r.Dim, l2+r.B, h2+r.B)}
	case BoundRepl:
		if _, _, ok := section.Transform(rg.Lo, rg.Hi, r.A, r.B, r.Bound); !ok {
			return axisEffect{empty: true}
		}
	case Constant:
		if r.C < rg.Lo || r.C > rg.Hi {
			return axisEffect{empty: true}
		}
	}
	return none
}

func ceilDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 && (a > 0) == (b > 0) {
		q++
	}
	return q
}

// BlockSize is |B_k| = Π (Upper − Lower + Step) div Step (0 for empty).
func BlockSize(b section.Block) int64 {
	if b == nil {
		return 0
	}
	n := int64(1)
	for _, s := range b {
		st := s.Step
		if st == 0 {
			st = 1
		}
		n *= (s.Upper - s.Lower + st) / st
	}
	return n
}
