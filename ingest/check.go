package ingest

import (
	"errors"
	"io"

	"github.com/presage-dvm/presage/schema/store"
	"github.com/presage-dvm/presage/sim"
	"github.com/presage-dvm/presage/sim/trace"
)

// checkedReader passes the parser's calls on to the store and checks what
// they mean: a simulation of the trace on one processor (sim.Check) runs in
// a goroutine beside the writing, fed copies of the calls. The reader's
// end waits for the check and becomes its error, so a trace no
// configuration can simulate is refused before its transaction commits,
// with the file, the line and what was expected.
type checkedReader struct {
	store.TraceReader
	calls   chan []trace.Call // to the check; closed at the end
	batch   []trace.Call
	checked chan error // the check's outcome
	ended   bool       // calls closed and the outcome in err
	err     error
}

// checkBatch is how many calls go to the check at once.
const checkBatch = 1024

func newCheckedReader(r store.TraceReader, name string) *checkedReader {
	c := &checkedReader{TraceReader: r, calls: make(chan []trace.Call, 4), checked: make(chan error, 1)}
	src := &callSource{calls: c.calls}
	go func() { c.checked <- sim.Check(r.Header(), src, name) }()
	return c
}

// Next returns the parser's next call. At the end of the trace it returns
// the check's error, if any, instead of io.EOF, and as soon as the check
// fails, its error; an error of the parser is returned as is.
func (c *checkedReader) Next() (*trace.Call, error) {
	if c.ended {
		if c.err != nil {
			return nil, c.err
		}
		return nil, io.EOF
	}
	call, err := c.TraceReader.Next()
	if err != nil {
		if check := c.end(); err == io.EOF && check != nil {
			return nil, check
		}
		return nil, err
	}
	// The parser reuses its call: the check gets a copy.
	if c.batch = append(c.batch, *call); len(c.batch) == checkBatch {
		if err := c.send(); err != nil {
			return nil, err
		}
	}
	return call, nil
}

// send hands the batch to the check, or returns the check's error when it
// failed before the end (it ends early only by failing).
func (c *checkedReader) send() error {
	select {
	case c.calls <- c.batch:
		c.batch = make([]trace.Call, 0, checkBatch)
		return nil
	case err := <-c.checked:
		if err == nil { // it reads to the end: never, but a short trace stored would be worse
			err = errors.New("trace check: ended before the trace")
		}
		close(c.calls)
		c.ended, c.err = true, err
		return err
	}
}

// end hands over the last calls, waits for the check and returns its
// error. It is safe to call more than once, and Close calls it for a
// reader left before its end.
func (c *checkedReader) end() error {
	if c.ended {
		return c.err
	}
	if len(c.batch) > 0 {
		if err := c.send(); err != nil {
			return err
		}
	}
	close(c.calls)
	c.ended, c.err = true, <-c.checked
	return c.err
}

// Close ends the check of a reader the store stopped reading (a cancelled
// ingest), so that its goroutine ends too.
func (c *checkedReader) Close() { c.end() }

// callSource is the check's trace.Source: the calls sent to it (their
// parameters parsed by the simulator's compiler, once per distinct text).
type callSource struct {
	calls chan []trace.Call
	cur   []trace.Call
}

func (s *callSource) Next() (*trace.Call, error) {
	for len(s.cur) == 0 {
		b, ok := <-s.calls
		if !ok {
			return nil, io.EOF
		}
		s.cur = b
	}
	c := &s.cur[0]
	s.cur = s.cur[1:]
	return c, nil
}
