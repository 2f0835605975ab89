package ingest

import (
	"io"

	"github.com/presage-dvm/presage/schema/store"
	"github.com/presage-dvm/presage/sim/trace"
)

// checkedReader passes the parser's calls on to the store and checks what
// they mean on the way, with a CallCheck (TraceOptions.CheckMeaning's
// simulation on one processor, or a prediction) fed each call as it is
// read, in the one pass that packs the trace, with no copy of it. A call
// is checked once the store has packed it, when the next one is asked
// for (the parser has not reused it yet): the pack has numbered its shape
// then (trace.Call.Shape), and the check compiles it by that number. A
// defect becomes the reader's error at the next call, and the end of the
// check the error of the reader's end, so a trace the check refuses is
// refused before its transaction commits, with the file, the line and
// what was expected.
type checkedReader struct {
	store.TraceReader
	check   CallCheck
	pending *trace.Call // the call returned last, not checked yet
	ended   bool        // the check ended: its verdict is err
	err     error
}

// CallCheck checks a trace's calls as they are read: Add each call in
// order (it may be reused once Add returns), then End at the end of the
// trace. sim.Checker is one (TraceOptions.CheckMeaning); a prediction made
// as the trace is ingested (sim.Stream, TraceOptions.Check) is another.
type CallCheck interface {
	Add(*trace.Call) error
	End() error
}

// newCheckedReader checks r's calls with the check newCheck makes.
func newCheckedReader(r store.TraceReader, name string, newCheck func(*trace.Header, string) CallCheck) *checkedReader {
	return &checkedReader{TraceReader: r, check: newCheck(r.Header(), name)}
}

// Next checks the call it returned last, then returns the parser's next
// call. At the end of the trace it returns the check's error, if any,
// instead of io.EOF; an error of the parser is returned as is.
func (c *checkedReader) Next() (*trace.Call, error) {
	if c.ended {
		if c.err != nil {
			return nil, c.err
		}
		return nil, io.EOF
	}
	if call := c.pending; call != nil {
		c.pending = nil
		if err := c.check.Add(call); err != nil {
			c.ended, c.err = true, err
			return nil, err
		}
	}
	call, err := c.TraceReader.Next()
	if err != nil {
		if err == io.EOF {
			c.ended, c.err = true, c.check.End()
			if c.err != nil {
				return nil, c.err
			}
		}
		return nil, err
	}
	c.pending = call
	return call, nil
}
