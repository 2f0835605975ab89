package sim

import (
	"github.com/presage-dvm/presage/sim/machine"
	"github.com/presage-dvm/presage/sim/result"
	"github.com/presage-dvm/presage/sim/trace"
)

// oneProcessor is the configuration a Checker simulates.
func oneProcessor() result.Config { return result.Config{Grid: []int{1}} }

// checkMachine is the machine of one processor a Checker simulates on.
func checkMachine() *machine.Machine {
	return &machine.Machine{Name: "check", Root: &machine.Node{Name: "check", Channels: 1,
		Children: []*machine.Node{{Name: "p0", Power: 1}}}}
}

// Checker simulates a trace on one processor, fed one call at a time (a
// Stream), to find what no configuration can simulate: a call that names
// an array, template, loop or processor system never created, a rank,
// size or nesting beyond the engine's limits (engine.MaxRank and the
// others), a parameter that does not mean what its call needs. The error
// is the first defect, an *engine.Error naming the trace file's line.
// `presage ingest trace --check` runs it on the calls as they are parsed,
// so that such a trace is refused when it is stored; without it a trace's
// first prediction finds the same defects, on any configuration. In the
// goroutine that reads the trace, the check costs no second pass over the
// calls, no copy of them and no goroutine beside the reading. Nothing
// about one processor's times is kept: grid-dependent defects (none is
// known) would still be found only by the predictions. Add each call in
// order, then End.
type Checker struct{ s *Stream }

// NewChecker starts the check of the trace whose header is h.
func NewChecker(h *trace.Header, traceFile string) *Checker {
	s, err := NewStream(h, checkMachine(), oneProcessor(), Options{TraceFile: traceFile})
	if err != nil {
		s = &Stream{err: err}
	}
	return &Checker{s}
}

// Add simulates the next call. It returns the first defect found, and
// that error again for every call after.
func (c *Checker) Add(call *trace.Call) error { return c.s.Add(call) }

// End ends the check at the end of the trace and returns its verdict:
// the first defect, or nil.
func (c *Checker) End() error {
	_, err := c.s.End()
	return err
}
