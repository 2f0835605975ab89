package sim

import (
	"github.com/presage-dvm/presage/sim/machine"
	"github.com/presage-dvm/presage/sim/result"
	"github.com/presage-dvm/presage/sim/trace"
)

// Check simulates the trace on one processor to find what no
// configuration can simulate: a call that names an array, template, loop or
// processor system never created, a rank, size or nesting beyond the
// engine's limits (engine.MaxRank and the others), a parameter that does
// not mean what its call needs. The error is the first defect, an
// *engine.Error naming traceFile's line. Ingest runs it so that such a
// trace is refused when it is stored, not by every prediction after.
// Nothing about one processor's times is kept: grid-dependent defects
// (none is known) would still be found only by the predictions.
func Check(h *trace.Header, calls trace.Source, traceFile string) error {
	one := &machine.Machine{Name: "check", Root: &machine.Node{Name: "check", Channels: 1,
		Children: []*machine.Node{{Name: "p0", Power: 1}}}}
	_, err := Predict(h, calls, one, result.Config{Grid: []int{1}}, Options{TraceFile: traceFile})
	return err
}
