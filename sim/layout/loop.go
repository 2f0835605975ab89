package layout

import "github.com/presage-dvm/presage/sim/section"

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
// processor's iteration block.
func (l *Loop) Map(t *Template, rules []Rule, on *Array) error {
	l.Tmpl, l.Rules, l.OnArray, l.Mapped = t, rules, on, true
	l.Blocks = nil
	if t == nil || t.VM == nil {
		return nil
	}
	ranges := make([][]Range, len(t.Axis))
	for i, ax := range t.Axis {
		if ax != 0 {
			var err error
			if ranges[i], err = t.LoopRanges(i); err != nil {
				return err
			}
		}
	}
	l.Blocks = make([]section.Block, t.VM.P())
	slab := make([]section.Section, len(l.Blocks)*l.Rank)
	for k := range l.Blocks {
		l.Blocks[k] = l.block(k, ranges, slab[k*l.Rank:(k+1)*l.Rank:(k+1)*l.Rank])
	}
	return nil
}

// block is the local iteration block of VM processor k (docs/model.md
// §5.7), made in b, or nil; ranges are the LoopRanges of every
// distributed VM dimension.
func (l *Loop) block(k int, ranges [][]Range, b section.Block) section.Block {
	t := l.Tmpl
	for d := range b {
		b[d] = section.Section{Lower: l.L[d], Upper: l.H[d], Step: 1}
	}
	for i, ax := range t.Axis {
		if ax == 0 {
			continue
		}
		rg := ranges[i][t.VM.Coord(k, i)]
		lo, hi := rg.Lo, rg.Hi
		if lo > hi {
			return nil
		}
		if ax-1 >= len(l.Rules) {
			continue
		}
		r := l.Rules[ax-1]
		switch r.Kind {
		case Normal:
			if r.Dim >= len(b) {
				continue
			}
			l2, h2, ok := section.Transform(lo, hi, r.A, r.B, l.H[r.Dim]-l.L[r.Dim]+1)
			if !ok {
				return nil
			}
			b[r.Dim] = section.Section{Lower: l2 + r.B, Upper: h2 + r.B, Step: 1}
		case BoundRepl:
			if _, _, ok := section.Transform(lo, hi, r.A, r.B, r.Bound); !ok {
				return nil
			}
		case Constant:
			if r.C < lo || r.C > hi {
				return nil
			}
		}
	}
	for d := range b {
		s := l.S[d]
		if s <= 0 {
			s = 1
		}
		lo, hi := b[d].Lower, b[d].Upper
		lo = s * ceilDiv(lo, s)
		hi = s * (hi / s)
		if lo > hi || lo < 0 {
			return nil
		}
		b[d] = section.Section{Lower: lo, Upper: hi, Step: s}
	}
	return b
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
