package stage

import (
	"context"
	"errors"
	"fmt"

	"github.com/presage-dvm/presage/schema/store"
	"github.com/presage-dvm/presage/sim"
	"github.com/presage-dvm/presage/sim/engine"
	"github.com/presage-dvm/presage/sim/trace"
)

// CompiledTrace is a stored trace compiled for simulation. The calls are
// streamed from the store into the compiler and not kept: a compiled call
// takes a few dozen bytes where a loaded one takes about a kilobyte, so a
// sweep's memory is the compiled program plus what the workers hold.
type CompiledTrace struct {
	Info    store.TraceInfo
	Header  *trace.Header
	Program *sim.Program
	st      *store.Store // where a defect its simulations find is marked (Verdict)
}

// CompileTrace reads the stored trace name (or id) and compiles it,
// passing every call to observe first when observe is not nil (searches
// collect what they need from the calls this way, without a second read).
// A trace marked refused by an earlier prediction is refused at once,
// with its defect: it is not read.
func CompileTrace(ctx context.Context, st *store.Store, name string, observe func(*trace.Call) error) (*CompiledTrace, error) {
	info, err := st.Trace(name)
	if err != nil {
		return nil, err
	}
	if err := refusal(info); err != nil {
		return nil, err
	}
	stream, err := st.OpenTrace(ctx, info)
	if err != nil {
		return nil, err
	}
	defer stream.Close()
	var src trace.Source = stream
	if observe != nil {
		src = &observedSource{src: src, observe: observe}
	}
	prog, err := sim.Compile(stream.Header, src)
	if err != nil {
		return nil, fmt.Errorf("load trace %s: %w", info.Name, err)
	}
	if int64(prog.Calls()) != int64(info.Calls) {
		return nil, fmt.Errorf("load trace %s: %d calls stored, the trace row says %d", info.Name, prog.Calls(), info.Calls)
	}
	return &CompiledTrace{Info: info, Header: stream.Header, Program: prog, st: st}, nil
}

// Verdict is err, the error of a simulation of the compiled trace, after
// marking the trace refused when err is a defect of it (refuseOnDefect):
// every simulation of a stored trace is its check.
func (ct *CompiledTrace) Verdict(ctx context.Context, err error) error {
	return refuseOnDefect(ctx, ct.st, ct.Info, err)
}

// refusal is the error of a prediction of a stored trace that an earlier
// prediction refused, nil for a trace not refused.
func refusal(info store.TraceInfo) error {
	if info.Refused == "" {
		return nil
	}
	return fmt.Errorf("trace %s (file %s) was refused at its first prediction: %s", info.Name, info.Path, info.Refused)
}

// refuseOnDefect returns err, the error of a prediction of stored trace
// info, after marking the trace refused in the store when err is a defect
// of the trace. Ingest does not simulate a trace (ingest.Trace), so its
// first prediction is its check: a defect (an *engine.Error that is no
// Limit) is found alike on every configuration, and the mark refuses every
// later prediction at once (refusal). A configuration over a limit of the
// simulator, a stop or any other error marks nothing. The caller stores
// nothing of a failed prediction.
func refuseOnDefect(ctx context.Context, st *store.Store, info store.TraceInfo, err error) error {
	var defect *engine.Error
	if !errors.As(err, &defect) || defect.Limit || st == nil {
		return err
	}
	// Marked even when ctx ends now: the defect is known, and the next
	// prediction would only find it again.
	if merr := st.MarkTraceRefused(context.WithoutCancel(ctx), info.ID, defect.Error()); merr != nil {
		return fmt.Errorf("%w (marking trace %s refused: %v)", err, info.Name, merr)
	}
	return err
}

// observedSource shows every call to observe before handing it on.
type observedSource struct {
	src     trace.Source
	observe func(*trace.Call) error
}

func (s *observedSource) Next() (*trace.Call, error) {
	c, err := s.src.Next()
	if err != nil {
		return nil, err
	}
	if err := s.observe(c); err != nil {
		return nil, err
	}
	return c, nil
}
