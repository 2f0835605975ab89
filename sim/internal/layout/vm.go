// Package layout is the data and iteration layout of the DVM Predictor model
// (docs/model.md §5): processor systems (virtual machines), templates and their
// block distribution with weights, distributed arrays with their alignment,
// parallel loops, and the local blocks of data and iterations each
// processor owns.
package layout

// VM is a virtual machine (processor system): a grid of at most 4
// dimensions whose processors map to absolute (root) processors.
type VM struct {
	Sizes []int     // grid sizes, row-major, last dimension fastest
	Map   []int     // VM processor k -> absolute processor
	Power []float64 // pow(k), the relative power of VM processor k
	// Uniform is true when the VM covers every root processor once and all
	// powers are equal, so that charges may be kept once for all.
	Uniform bool
}

// NewRoot returns the root VM of the grid with the given per-processor
// powers (len(power) = product of grid).
func NewRoot(grid []int, power []float64) *VM {
	n := 1
	for _, d := range grid {
		n *= d
	}
	vm := &VM{Sizes: append([]int(nil), grid...), Map: make([]int, n), Power: power}
	for k := range vm.Map {
		vm.Map[k] = k
	}
	vm.Uniform = allEqual(power)
	return vm
}

func allEqual(v []float64) bool {
	for _, x := range v {
		if x != v[0] {
			return false
		}
	}
	return true
}

// P is the number of processors.
func (vm *VM) P() int { return len(vm.Map) }

// Rank is the number of grid dimensions.
func (vm *VM) Rank() int { return len(vm.Sizes) }

// Coord returns coordinate i of processor k.
func (vm *VM) Coord(k, i int) int {
	m := 1
	for j := len(vm.Sizes) - 1; j > i; j-- {
		m *= vm.Sizes[j]
	}
	return k / m % vm.Sizes[i]
}

// Stride is the linear distance between neighbours along dimension i.
func (vm *VM) Stride(i int) int {
	m := 1
	for j := len(vm.Sizes) - 1; j > i; j-- {
		m *= vm.Sizes[j]
	}
	return m
}

// Shift moves processor k by delta along dimension i the way the original
// does: the linear index changes by delta·stride, and only the linear range
// is checked (a coordinate leaving the grid may wrap into another row).
func (vm *VM) Shift(k, i, delta int) (int, bool) {
	if i < 0 || i >= len(vm.Sizes) {
		return k, false
	}
	q := k + delta*vm.Stride(i)
	return q, q >= 0 && q < vm.P()
}

// Child returns the VM of the sub-grid starting at origin with the given
// sizes (crtps_). Its processor powers are those of the root processors it
// maps to.
func (vm *VM) Child(origin, sizes []int, rootPower []float64) *VM {
	n := 1
	for _, d := range sizes {
		n *= d
	}
	c := &VM{Sizes: append([]int(nil), sizes...), Map: make([]int, n), Power: make([]float64, n)}
	coord := make([]int, len(sizes))
	for k := 0; k < n; k++ {
		rem := k
		for i := len(sizes) - 1; i >= 0; i-- {
			coord[i] = rem % sizes[i]
			rem /= sizes[i]
		}
		lin := 0
		for i := range vm.Sizes {
			x := 0
			if i < len(coord) {
				x = coord[i]
			}
			if i < len(origin) {
				x += origin[i]
			}
			lin = lin*vm.Sizes[i] + x
		}
		if lin >= vm.P() || lin < 0 {
			lin = 0
		}
		c.Map[k] = vm.Map[lin]
		c.Power[k] = rootPower[c.Map[k]]
	}
	c.Uniform = n == len(rootPower) && allEqual(c.Power)
	return c
}

// Reshape gives the VM a new grid shape over the same processors (psview_);
// the processor count may shrink but not grow.
func (vm *VM) Reshape(sizes []int) {
	n := 1
	for _, d := range sizes {
		if d > 0 && n > len(vm.Map)/d { // more than the VM has, however large
			n = len(vm.Map)
			break
		}
		n *= d
	}
	n = min(n, len(vm.Map))
	vm.Uniform = vm.Uniform && n == len(vm.Map)
	vm.Sizes = append([]int(nil), sizes...)
	vm.Map = vm.Map[:n]
	vm.Power = vm.Power[:n]
}
