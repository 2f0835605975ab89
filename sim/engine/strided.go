package engine

import (
	"github.com/presage-dvm/presage/sim/internal/layout"
	"github.com/presage-dvm/presage/sim/internal/section"
)

// The extended model's strided iteration time (machine.Machine.Strided).
// A real run-time pipelines an ACROSS loop in portions of a dimension that
// the processor grid does not split. When that dimension is the one along
// which the loop's array lies contiguous in memory, each portion sweeps
// every column of the array in a short segment: the hardware prefetcher
// never gets going, and every segment starts with a wait on memory. devdvm's sor on 1x2 computes its
// ACROSS loop 1.6 times as long as on 2x1, whose portions are whole
// columns (docs/compare.md, "The pipelined loop's portions"). The
// one-process trace shows none of it: its loop runs unpipelined. So each
// processor is charged the strided time for each of its iterations of
// such a loop, as computing; a loop cut along another dimension, or run
// on one processor, is not.

// contiguousLoopDim is the loop dimension (0-based) that mappl_'s AxisArray
// and CoeffArray (per dimension of the pattern array) map to the array's
// contiguous dimension, -1 when none does (the axis is replicated or
// constant). The run-time numbers an array's dimensions in C's order,
// slowest first (a Fortran-DVM compiler passes A(I,J) as J, I), so the
// contiguous one is the last: on grid 1x2, sor's A(I,J) is split along
// its first run-time dimension (J) and its pipeline cuts the last (I).
func contiguousLoopDim(axis, coeff []int64) int {
	a := len(axis) - 1
	if a < 0 || at(coeff, a) == 0 || axis[a] <= 0 {
		return -1
	}
	return int(axis[a] - 1)
}

// chargeStrided charges the strided iteration time for ACROSS loop m's
// iterations to each processor that runs some, when the loop's pipeline
// cuts its array's contiguous dimension (cutsAlong). The pipeline's waits
// keep the trace's time per iteration: they follow the model's portions,
// fewer than a run-time's, and grown by the strided time they put sor's
// small 1x2 runs +9.9% where they are +4.4% without (the CI check of
// 2026-11-30 06:54, docs/compare.md).
func (e *Engine) chargeStrided(m *loopMapping) {
	if e.strided == 0 || m.contiguous < 0 || m.Tmpl.VM == nil {
		return
	}
	vm := m.Tmpl.VM
	if !cutsAlong(m.Blocks[:min(len(m.Blocks), vm.P())], m.contiguous) {
		return
	}
	for k, n := range m.sizes[:min(len(m.sizes), vm.P())] {
		if n > 0 {
			e.chargeIterations(vm.Map[k], e.strided*float64(n)/vm.Power[k], 0, false)
		}
	}
}

// cutsAlong reports whether a pipeline over the processors' blocks cuts
// loop dimension d into portions: the processors split the loop along
// another dimension, and each holds the whole of d (the run-time
// pipelines along the split dimension in portions of the others).
func cutsAlong(blocks []section.Block, d int) bool {
	var first section.Block
	split := false
	for _, b := range blocks {
		if layout.BlockSize(b) == 0 {
			continue
		}
		if d >= len(b) {
			return false
		}
		if first == nil {
			first = b
			continue
		}
		if b[d].Lower != first[d].Lower || b[d].Upper != first[d].Upper {
			return false
		}
		split = split || !b.Equal(first)
	}
	return split
}
