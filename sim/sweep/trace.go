package sweep

import (
	"context"
	"fmt"

	"github.com/jmoiron/sqlx"

	"github.com/presage-dvm/presage/ingest/ptr"
	"github.com/presage-dvm/presage/ingest/tracedb"
	"github.com/presage-dvm/presage/sim"
)

// Trace is a stored trace compiled for simulation. The calls are streamed
// from the store into the compiler and not kept: a compiled call takes a
// few dozen bytes where a loaded one takes about a kilobyte, so a sweep's
// memory is the compiled program plus what the workers hold.
type Trace struct {
	tracedb.Info
	Header  *ptr.Header
	Program *sim.Program
}

// LoadTrace reads the stored trace name (or id) and compiles it, passing
// every call to observe first when observe is not nil (searches collect
// what they need from the calls this way, without a second read).
func LoadTrace(ctx context.Context, db *sqlx.DB, name string, observe func(*ptr.Call) error) (*Trace, error) {
	stream, err := tracedb.Open(ctx, db, name)
	if err != nil {
		return nil, err
	}
	defer stream.Close()
	var src ptr.Source = stream
	if observe != nil {
		src = &observedSource{src: src, observe: observe}
	}
	prog, err := sim.Compile(stream.Header, src)
	if err != nil {
		return nil, fmt.Errorf("load trace %s: %w", stream.Name, err)
	}
	if prog.Calls() != stream.Calls {
		return nil, fmt.Errorf("load trace %s: %d calls stored, the trace row says %d", stream.Name, prog.Calls(), stream.Calls)
	}
	return &Trace{Info: stream.Info, Header: stream.Header, Program: prog}, nil
}

// observedSource shows every call to observe before handing it on.
type observedSource struct {
	src     ptr.Source
	observe func(*ptr.Call) error
}

func (s *observedSource) Next() (*ptr.Call, error) {
	c, err := s.src.Next()
	if err != nil {
		return nil, err
	}
	if err := s.observe(c); err != nil {
		return nil, err
	}
	return c, nil
}
