package stage

import (
	"context"
	"fmt"

	"github.com/presage-dvm/presage/schema/store"
	"github.com/presage-dvm/presage/sim"
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
}

// CompileTrace reads the stored trace name (or id) and compiles it,
// passing every call to observe first when observe is not nil (searches
// collect what they need from the calls this way, without a second read).
func CompileTrace(ctx context.Context, st *store.Store, name string, observe func(*trace.Call) error) (*CompiledTrace, error) {
	info, err := st.Trace(name)
	if err != nil {
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
	return &CompiledTrace{Info: info, Header: stream.Header, Program: prog}, nil
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
