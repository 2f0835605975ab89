package ingest

import (
	"io"

	"github.com/presage-dvm/presage/schema/store"
	"github.com/presage-dvm/presage/sim/trace"
)

// checkedReader passes the parser's calls on to the store and checks what
// they mean on the way, with a CallCheck (TraceOptions.CheckMeaning's
// simulation on one processor, or a prediction) fed each call as it is
// read, in the one pass that packs the trace, with no copy of it. A
// defect becomes the reader's error at its call, and the end of the
// check the error of the reader's end, so a trace the check refuses is
// refused before its transaction commits, with the file, the line and
// what was expected.
type checkedReader struct {
	store.TraceReader
	check CallCheck
	ended bool // the check ended: its verdict is err
	err   error
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

// Next returns the parser's next call once the check has simulated it. At
// the end of the trace it returns the check's error, if any, instead of
// io.EOF; an error of the parser is returned as is.
func (c *checkedReader) Next() (*trace.Call, error) {
	if c.ended {
		if c.err != nil {
			return nil, c.err
		}
		return nil, io.EOF
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
	if err := c.check.Add(call); err != nil {
		c.ended, c.err = true, err
		return nil, err
	}
	return call, nil
}
