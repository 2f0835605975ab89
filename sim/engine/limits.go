package engine

import (
	"fmt"
	"unsafe"

	"github.com/presage-dvm/presage/sim/result"
)

// The limits on what a trace may ask of the simulator. Every one is
// checked when the field is read, before anything is sized from it, so a
// damaged or hand-edited trace is refused with its file, line and the
// limit instead of exhausting memory or time (docs/deviations.md, "Traces
// refused by meaning").
const (
	// MaxRank bounds the rank of templates, arrays and parallel loops:
	// Fortran's 7 dimensions, which Fortran-DVM arrays cannot exceed
	// (the real traces use at most 4).
	MaxRank = 7
	// MaxElements bounds the elements of a template or an array (the
	// product of its sizes): beyond 2^53, counts of elements and bytes
	// would no longer be exact in the model's float64 arithmetic, and
	// no machine holds such an array.
	MaxElements = 1 << 53
	// MaxDepth bounds the nesting of intervals (loops and user intervals
	// inside one another); a real program nests a few levels. Intervals
	// left open at the end of the trace are fine (the report starts at the
	// innermost, as the original's does), a runaway of them is not.
	MaxDepth = 1000
	// MaxTypeSize bounds the bytes of an array element (the real traces
	// have 4 and 8): with MaxElements, an array's bytes stay below 2^62.
	MaxTypeSize = 1 << 9
)

// maxCachedBlocks bounds the processors' blocks of the loop mappings
// kept for reuse (loopMappingOf): about 300 MB.
const maxCachedBlocks = 1 << 22

// DefaultMaxState is Options.MaxState's default: 2 GiB of per-class
// counters. The counters of a simulation grow with the intervals that hold
// per-processor values times the classes of processors charged differently
// (at most the grid's processors): a large grid that splits into many
// classes in a trace of many intervals could need more than the machine
// has.
const DefaultMaxState = 2 << 30

// rowBytes is what one class's counters of one interval take, with the
// idle and imbalance values kept beside them.
const rowBytes = int64(unsafe.Sizeof(counters{})) + 16

// grow counts rows more counter rows, and makes the simulation fail
// (Exec returns overState) once they exceed the budget. It is called
// where rows are allocated, which cannot fail themselves.
func (e *Engine) grow(rows int64) {
	e.state += rows
	max := e.opt.MaxState
	if max <= 0 {
		max = DefaultMaxState
	}
	if e.overState == nil && e.state*rowBytes > max {
		err := &Error{File: e.name, Limit: true}
		if e.op != nil {
			err.Line, err.Func = int(e.op.traceLine), e.op.p.site.fn
		}
		e.overState = err
		err.Msg = fmt.Sprintf("grid %s needs more than %d MB of simulator state (%d intervals with per-processor values × %d classes of processors charged differently); the limit is %d MB (--max-memory)",
			result.GridString(e.root.Sizes), max>>20, len(e.perClass), e.classes.count(), max>>20)
	}
}

// checkRank refuses a rank outside 1..MaxRank.
func (e *Engine) checkRank(what string, rank int64) error {
	if rank < 1 || rank > MaxRank {
		return e.errorf("%s of rank %d: expected a rank from 1 to %d", what, rank, MaxRank)
	}
	return nil
}

// checkSizes refuses the sizes of a template or an array that are not
// positive, more than MaxRank, or whose product exceeds MaxElements.
func (e *Engine) checkSizes(what string, sizes []int64) error {
	if err := e.checkRank(what, int64(len(sizes))); err != nil {
		return err
	}
	elements := int64(1)
	for i, s := range sizes {
		if s < 1 {
			return e.errorf("%s: SizeArray[%d]=%d: expected a size ≥ 1", what, i, s)
		}
		if elements > MaxElements/s {
			return e.errorf("%s: SizeArray %v: more than %s elements (at most 2^53)", what, sizes, grouped(MaxElements))
		}
		elements *= s
	}
	return nil
}

// grouped writes n with thousands separators.
func grouped(n int64) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
