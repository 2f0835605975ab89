package layout

import (
	"fmt"
	"math"
)

// Template is an abstract machine representation ("AMView", crtamv_): an
// index space that is block-distributed on a VM by distr_.
type Template struct {
	Sizes []int64
	VM    *VM   // nil until distributed
	Axis  []int // per VM dimension: 1-based template dimension, 0 = replicated
	// Weights are the flat coordinate weights over the VM dimensions
	// (P_0 + ... + P_{r-1} entries), nil until installed.
	Weights []float64
	// Bm are the blkdiv_ multiples, indexed by VM dimension (the original's
	// indexing), nil without blkdiv_.
	Bm   []int64
	Fill []int // FillArr per VM dimension
}

// Distributed reports whether distr_ placed the template on a VM.
func (t *Template) Distributed() bool { return t.VM != nil }

// VMDimOf returns the VM dimension on which template dimension td (0-based)
// is distributed, or -1.
func (t *Template) VMDimOf(td int) int {
	for i, a := range t.Axis {
		if a == td+1 {
			return i
		}
	}
	return -1
}

// Distribute places the template on vm (distr_): axis[i] is the 1-based
// template dimension distributed along VM dimension i, 0 for replication.
func (t *Template) Distribute(vm *VM, axis []int) error {
	r := vm.Rank()
	ax := make([]int, r)
	for i := 0; i < r && i < len(axis); i++ {
		if axis[i] < 0 || axis[i] > len(t.Sizes) {
			return fmt.Errorf("AxisArray[%d]=%d is not a template dimension 0..%d", i, axis[i], len(t.Sizes))
		}
		ax[i] = axis[i]
	}
	t.VM, t.Axis = vm, ax
	t.Fill = make([]int, r)
	for i, a := range ax {
		if a == 0 {
			continue
		}
		n, p := t.Sizes[a-1], int64(vm.Sizes[i])
		b := (n-1)/p + 1
		t.Fill[i] = int(p - (n-1)/b - 1)
	}
	if t.Weights == nil {
		t.SetWeights(vm, nil)
	}
	return nil
}

// SetWeights installs coordinate weights (setpsw, docs/model.md §5.9): cw holds
// per VM dimension the input weights of its coordinates (nil or a nil entry
// = all 1). Processor powers make heterogeneous coordinates heavier.
func (t *Template) SetWeights(vm *VM, cw [][]float64) {
	r := vm.Rank()
	w := make([]float64, 0, 8)
	m := 100000.0
	for _, pw := range vm.Power {
		m = math.Min(m, pw)
	}
	// The powers of the processors of each coordinate, summed over the
	// processors in order as the original does, in one pass per dimension.
	sum := make([]float64, 0, 8)
	for i := 0; i < r; i++ {
		pi := vm.Sizes[i]
		sum = append(sum[:0], make([]float64, pi)...)
		lastPower, share := math.NaN(), 0.0
		for q := 0; q < vm.P(); q++ {
			if pw := vm.Power[q]; pw != lastPower {
				lastPower, share = pw, math.Pow(pw/m, 1/float64(r))
			}
			sum[vm.Coord(q, i)] += share
		}
		var c []float64
		if i < len(cw) && cw[i] != nil {
			c = cw[i]
		}
		mn := math.Inf(1)
		for j := 0; j < pi; j++ {
			mn = math.Min(mn, weightAt(c, j))
		}
		for j := 0; j < pi; j++ {
			sw := sum[j] / float64(vm.P()/pi)
			w = append(w, sw*weightAt(c, j)/mn)
		}
	}
	t.Weights = w
}

func weightAt(c []float64, j int) float64 {
	if c == nil || j >= len(c) {
		return 1
	}
	return c[j]
}

// weightOffset is the index of VM dimension i's first weight.
func (t *Template) weightOffset(i int) int {
	o := 0
	for j := 0; j < i; j++ {
		o += t.VM.Sizes[j]
	}
	return o
}

func (t *Template) w(k int) (float64, bool) {
	if t.Weights == nil {
		return 1, true
	}
	if k < 0 || k >= len(t.Weights) {
		return 0, false
	}
	return t.Weights[k], true
}

// blockV is v = N/W with the blkdiv_ rounding.
func (t *Template) blockV(i int, n int64, zeroGuard bool) (float64, error) {
	o, p := t.weightOffset(i), t.VM.Sizes[i]
	W := 0.0
	for j := 0; j < p; j++ {
		if x, ok := t.w(o + j); ok {
			W += x
		}
	}
	if zeroGuard && W == 0 {
		W = 1
	}
	v := float64(n) / W
	if i < len(t.Bm) && t.Bm[i] > 0 {
		bm := t.Bm[i]
		if n%bm != 0 {
			return 0, fmt.Errorf("dimension %d is not divisible by its block multiple %d (blkdiv_)", n, bm)
		}
		c := int64(math.Ceil(v))
		v = float64((c + bm - 1) / bm * bm)
	}
	return v, nil
}

// Range is a template range [Lo, Hi], empty when Lo > Hi.
type Range struct{ Lo, Hi int64 }

// DataRanges are the template ranges of every coordinate of VM dimension
// i under the data rule (§5.3): the blocks of a whole VM are made from
// them, one dimension at a time.
func (t *Template) DataRanges(i int) ([]Range, error) {
	n := t.Sizes[t.Axis[i]-1]
	v, err := t.blockV(i, n, true)
	if err != nil {
		return nil, err
	}
	o := t.weightOffset(i)
	out := make([]Range, t.VM.Sizes[i])
	s := 0.0 // the start of coordinate c, as start(o, c, v) sums it
	for c := range out {
		lo := int64(s)
		hi := lo
		x, ok := t.w(o + c)
		if ok {
			hi = int64(float64(lo) + v*x - 1)
			s += v * x
		}
		if hi+1 >= n-1 {
			hi = n - 1
		}
		out[c] = Range{lo, hi}
	}
	return out, nil
}

// LoopRanges are the template ranges of every coordinate of VM dimension
// i under the loop rule (§5.7: no zero guard, no end fix-up).
func (t *Template) LoopRanges(i int) ([]Range, error) {
	n := t.Sizes[t.Axis[i]-1]
	v, err := t.blockV(i, n, false)
	if err != nil {
		return nil, err
	}
	o := t.weightOffset(i)
	out := make([]Range, t.VM.Sizes[i])
	s := 0.0
	for c := range out {
		x, ok := t.w(o + c)
		out[c] = Range{int64(s), int64(s + v*x - 1)}
		if ok {
			s += v * x
		}
	}
	return out, nil
}
