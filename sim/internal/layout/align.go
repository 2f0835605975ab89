package layout

import "github.com/presage-dvm/presage/sim/internal/section"

// RuleKind is how one template dimension relates to an array or a loop.
type RuleKind uint8

const (
	Replicate RuleKind = iota // the object is replicated along the template dimension
	Constant                  // the object lives where the template index equals C
	Normal                    // object dimension Dim maps to template index A·j + B
	BoundRepl                 // replicated over the range A·j + B, j < Bound
)

// Rule is the alignment of one template dimension.
type Rule struct {
	Kind  RuleKind
	Dim   int // object dimension (0-based) for Normal
	A, B  int64
	C     int64 // Constant
	Bound int64 // BoundRepl
}

// AxisRules builds the rules of an align_ or mappl_ on a template from the
// call's arrays (per template dimension: Axis 1-based object dimension, -1
// replicate, 0 or Coeff 0 constant). base adds the loop offset Coeff·L of
// mappl_ (nil for arrays).
func AxisRules(axis, coeff, cnst []int64, base func(dim int) int64) []Rule {
	r := make([]Rule, len(axis))
	for t := range axis {
		a, c, k := axis[t], at(coeff, t), at(cnst, t)
		switch {
		case a < 0:
			r[t] = Rule{Kind: Replicate}
		case c == 0 || a == 0:
			r[t] = Rule{Kind: Constant, C: k}
		default:
			b := k
			if base != nil {
				b += c * base(int(a-1))
			}
			r[t] = Rule{Kind: Normal, Dim: int(a - 1), A: c, B: b}
		}
	}
	return r
}

func at(v []int64, i int) int64 {
	if i < len(v) {
		return v[i]
	}
	return 0
}

// Compose aligns an object on the pattern array q: own[k] is the object's
// rule on q's dimension k (built by AxisRules over q's dimensions); the
// result is indexed by template dimension (docs/model.md §5.4).
func Compose(q *Array, own []Rule) []Rule {
	r := make([]Rule, len(q.Rules))
	for t, qr := range q.Rules {
		if qr.Kind != Normal {
			r[t] = qr
			continue
		}
		if qr.Dim >= len(own) {
			r[t] = Rule{Kind: Replicate}
			continue
		}
		o := own[qr.Dim]
		switch o.Kind {
		case Normal:
			r[t] = Rule{Kind: Normal, Dim: o.Dim, A: o.A * qr.A, B: o.B*qr.A + qr.B}
		case Constant:
			r[t] = Rule{Kind: Constant, C: qr.A*o.C + qr.B}
		default:
			bound := q.Sizes[qr.Dim]
			if t < len(q.Sizes) {
				bound = q.Sizes[t]
			}
			r[t] = Rule{Kind: BoundRepl, A: qr.A, B: qr.B, Bound: bound}
		}
	}
	return r
}

// Array is a distributed array (crtda_).
type Array struct {
	Sizes     []int64
	Low, High []int64 // shadow widths
	TS        int64   // |TypeSize|
	Tmpl      *Template
	Rules     []Rule // per template dimension; nil until aligned
	// inherited is the replication flag of a DisArray pattern.
	inherited *bool
	blocks    []section.Block // cache of Loc per VM processor
	cacheVM   *VM
	cacheN    int
}

// Aligned reports whether align_ placed the array on a template.
func (a *Array) Aligned() bool { return a.Tmpl != nil }

// Align sets the array's alignment on template t.
func (a *Array) Align(t *Template, rules []Rule, pattern *Array) {
	a.Tmpl, a.Rules, a.blocks = t, rules, nil
	a.inherited = nil
	if pattern != nil {
		r := pattern.Replicated()
		a.inherited = &r
	}
}

// Replicated reports whether the array is fully replicated (docs/model.md §5.4).
func (a *Array) Replicated() bool {
	if a.inherited != nil {
		return *a.inherited
	}
	if a.Tmpl == nil || !a.Tmpl.Distributed() {
		return true
	}
	for t, r := range a.Rules {
		if a.Tmpl.VMDimOf(t) < 0 {
			continue
		}
		if r.Kind == Constant || r.Kind == Normal {
			return false
		}
	}
	return true
}

// VMDim is the VM dimension (0-based) onto which array dimension d is
// block-mapped, or -1 (GetMapDim), and the sign of its coefficient.
func (a *Array) VMDim(d int) (int, int) {
	if a.Tmpl == nil || !a.Tmpl.Distributed() {
		return -1, 0
	}
	for t, r := range a.Rules {
		if r.Kind == Normal && r.Dim == d {
			dir := 1
			if r.A < 0 {
				dir = -1
			}
			return a.Tmpl.VMDimOf(t), dir
		}
	}
	return -1, 0
}

// VM is the VM of the array's template (nil when not distributed).
func (a *Array) VM() *VM {
	if a.Tmpl == nil {
		return nil
	}
	return a.Tmpl.VM
}

// Loc is the local block of VM processor k of the template's VM
// (docs/model.md §5.4). Blocks are cached until the alignment changes.
func (a *Array) Loc(k int) (section.Block, error) {
	vm := a.VM()
	if vm == nil {
		return a.whole(), nil
	}
	if a.blocks == nil || a.cacheVM != vm || a.cacheN != vm.P() {
		bs, err := a.locs()
		if err != nil {
			return nil, err
		}
		a.blocks, a.cacheVM, a.cacheN = bs, vm, vm.P()
	}
	if k < 0 || k >= len(a.blocks) {
		return nil, nil
	}
	return a.blocks[k], nil
}

func (a *Array) whole() section.Block {
	return a.wholeIn(make(section.Block, len(a.Sizes)))
}

// wholeIn makes the whole array's block in b.
func (a *Array) wholeIn(b section.Block) section.Block {
	for d, n := range a.Sizes {
		b[d] = section.Section{Lower: 0, Upper: n - 1, Step: 1}
	}
	return b
}

// locs are the local blocks of every processor of the template's VM.
func (a *Array) locs() ([]section.Block, error) {
	t := a.Tmpl
	ranges := make([][]Range, len(t.Axis))
	for i, ax := range t.Axis {
		if ax != 0 {
			var err error
			if ranges[i], err = t.DataRanges(i); err != nil {
				return nil, err
			}
		}
	}
	rank := len(a.Sizes)
	bs := make([]section.Block, t.VM.P())
	slab := make([]section.Section, len(bs)*rank)
	for k := range bs {
		bs[k] = a.loc(k, ranges, slab[k*rank:(k+1)*rank:(k+1)*rank])
	}
	return bs, nil
}

// loc is the local block of VM processor k, made in b, or nil; ranges
// are the DataRanges of every distributed VM dimension.
func (a *Array) loc(k int, ranges [][]Range, b section.Block) section.Block {
	t := a.Tmpl
	a.wholeIn(b)
	for i, ax := range t.Axis {
		if ax == 0 {
			continue
		}
		rg := ranges[i][t.VM.Coord(k, i)]
		lo, hi := rg.Lo, rg.Hi
		if lo > hi {
			return nil
		}
		if ax-1 >= len(a.Rules) {
			continue
		}
		r := a.Rules[ax-1]
		switch r.Kind {
		case Normal:
			if r.Dim >= len(b) {
				continue
			}
			l2, h2, ok := section.Transform(lo, hi, r.A, r.B, a.Sizes[r.Dim])
			if ok {
				b[r.Dim] = section.Section{Lower: l2, Upper: h2, Step: 1}
			} else {
				b[r.Dim] = section.Section{Lower: -1, Upper: h2, Step: 1}
				if h2 < -1 {
					return nil
				}
			}
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
	return b
}
