package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/presage-dvm/presage/sim/trace"
)

// LoadedTrace is a stored trace loaded whole.
type LoadedTrace struct {
	TraceInfo
	Header *trace.Header
	Calls  []*trace.Call
}

// LoadTrace reads a stored trace whole: name is a trace name or id (see
// Trace). Prefer OpenTrace, which streams: a loaded call takes far more
// memory than a compiled one.
func (s *Store) LoadTrace(name string) (*LoadedTrace, error) {
	info, err := s.Trace(name)
	if err != nil {
		return nil, err
	}
	ts, err := s.OpenTrace(context.Background(), info)
	if err != nil {
		return nil, err
	}
	defer ts.Close()
	calls := make([]*trace.Call, 0, info.Calls)
	var block []trace.Call // copies of the calls, which ts reuses
	for {
		c, err := ts.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		if len(block) == cap(block) {
			block = make([]trace.Call, 0, max(1, min(batchCalls, info.Calls-len(calls))))
		}
		block = append(block, *c)
		block[len(block)-1].Shape = 0 // the calls as the file gives them
		calls = append(calls, &block[len(block)-1])
	}
	return &LoadedTrace{TraceInfo: info, Header: ts.Header, Calls: calls}, nil
}

// callSource streams the rows of the calls table of one trace in order,
// for traces without a pack. A goroutine reads the rows ahead while Next
// parses the parameters, so reading the store, parsing and the caller's
// work overlap. Close it when stopping before io.EOF: until then it holds
// a connection of the store.
type callSource struct {
	batches chan callBatch
	stop    chan struct{}
	exited  chan struct{}
	once    sync.Once
	cur     []trace.Call
	pos     int
	err     error // sticky: io.EOF, a read error or errClosed
	slab    trace.ParamSlab
}

// callBatch is a run of calls read from the store, their parameters not
// parsed yet, or the error that ended the read.
type callBatch struct {
	calls []trace.Call
	err   error
}

const (
	batchCalls   = 1024
	batchesAhead = 4
)

var errClosed = errors.New("call source closed")

// callRows returns the rows of the calls table of trace id as a
// trace.Source.
func (s *Store) callRows(id int64) (*callSource, error) {
	rows, err := s.db.Query(`SELECT func, call_time, ret_time, line, file, trace_line, call_params, ret_params
		FROM calls WHERE trace_id = ? ORDER BY seq`, id)
	if err != nil {
		return nil, fmt.Errorf("load calls of trace %d: %w", id, err)
	}
	src := &callSource{
		batches: make(chan callBatch, batchesAhead),
		stop:    make(chan struct{}),
		exited:  make(chan struct{}),
	}
	go src.read(rows, id)
	return src, nil
}

// read sends the rows in batches until the end, an error or Close.
func (s *callSource) read(rows *sql.Rows, id int64) {
	defer close(s.exited)
	defer close(s.batches)
	defer rows.Close()
	send := func(b callBatch) bool {
		select {
		case s.batches <- b:
			return true
		case <-s.stop:
			return false
		}
	}
	names := make(map[string]string)
	var fn, file sql.RawBytes
	calls := make([]trace.Call, 0, batchCalls)
	for rows.Next() {
		calls = calls[:len(calls)+1]
		c := &calls[len(calls)-1]
		if err := rows.Scan(&fn, &c.CallTime, &c.RetTime, &c.Line, &file, &c.TraceLine, &c.InText, &c.OutText); err != nil {
			send(callBatch{err: fmt.Errorf("load calls of trace %d: %w", id, err)})
			return
		}
		c.Func, c.File = intern(names, fn), intern(names, file)
		if len(calls) == cap(calls) {
			if !send(callBatch{calls: calls}) {
				return
			}
			calls = make([]trace.Call, 0, batchCalls)
		}
	}
	b := callBatch{calls: calls}
	if err := rows.Err(); err != nil {
		b.err = fmt.Errorf("load calls of trace %d: %w", id, err)
	}
	send(b)
}

// Next returns the next call, or io.EOF after the last one.
func (s *callSource) Next() (*trace.Call, error) {
	for s.pos >= len(s.cur) {
		if s.err != nil {
			return nil, s.err
		}
		b, ok := <-s.batches
		if !ok {
			s.err = io.EOF
			continue
		}
		s.cur, s.pos, s.err = b.calls, 0, b.err
	}
	c := &s.cur[s.pos]
	s.pos++
	c.In, c.Pattern = s.slab.Parse(c.InText)
	c.Out, _ = s.slab.Parse(c.OutText)
	return c, nil
}

// Close stops the read and releases the store's connection; Next then
// fails.
func (s *callSource) Close() error {
	s.once.Do(func() { close(s.stop) })
	<-s.exited
	s.cur, s.pos = nil, 0
	if s.err == nil || s.err == io.EOF {
		s.err = errClosed
	}
	return nil
}
