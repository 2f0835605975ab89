package sim

import (
	"github.com/presage-dvm/presage/sim/engine"
	"github.com/presage-dvm/presage/sim/machine"
	"github.com/presage-dvm/presage/sim/result"
	"github.com/presage-dvm/presage/sim/trace"
)

// Stream is Predict fed one call at a time by the goroutine that reads
// the trace, rather than pulling them from a trace.Source: a trace being
// ingested can be simulated in the pass that parses and packs it, with
// no copy of its calls. Add each call in order (it may be reused once Add
// returns), then End. The run is the one Predict makes of the same calls.
type Stream struct {
	e    *engine.Engine
	cfg  result.Config
	opt  Options
	comp *engine.Compiler
	op   [1]engine.Op // one for all calls: the engine keeps a pointer to it
	n    int          // calls simulated
	err  error
}

// NewStream starts the prediction of the trace whose header is h, as
// Predict does; the error is Predict's before any call is read (the
// configuration's).
func NewStream(h *trace.Header, m *machine.Machine, cfg result.Config, opt Options) (*Stream, error) {
	s := &Stream{opt: opt, comp: engine.NewCompiler()}
	var err error
	if s.e, s.cfg, err = start(h, m, cfg, opt); err != nil {
		return nil, err
	}
	return s, nil
}

// Add simulates the next call. It returns the first error (a defect of
// the trace at the call, or Options.Stop's), and that error again for
// every call after.
func (s *Stream) Add(call *trace.Call) error {
	if s.err != nil {
		return s.err
	}
	if s.err = s.opt.stopped(s.n); s.err != nil {
		return s.err
	}
	s.n++
	s.op[0] = s.comp.Compile(call)
	s.err = s.e.ExecAll(s.op[:])
	return s.err
}

// End ends the prediction at the end of the trace and returns the run.
func (s *Stream) End() (*result.Run, error) {
	if s.err != nil {
		return nil, s.err
	}
	run, err := finish(s.e, s.cfg, s.opt)
	s.err = err
	return run, err
}
