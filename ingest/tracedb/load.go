package tracedb

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"strconv"
	"sync"

	"github.com/jmoiron/sqlx"

	"github.com/presage-dvm/presage/ingest/ptr"
)

// List returns the stored traces in ingest order.
func List(db *sqlx.DB) ([]Info, error) {
	var infos []Info
	if err := db.Select(&infos, `SELECT `+infoColumns+` FROM traces ORDER BY id`); err != nil {
		return nil, fmt.Errorf("list traces: %w", err)
	}
	return infos, nil
}

// Find returns the Info of a stored trace given its name (the latest
// ingest with that name wins) or, when no trace has that name, its numeric
// id.
func Find(db *sqlx.DB, name string) (Info, error) {
	var info Info
	err := db.Get(&info, `SELECT `+infoColumns+` FROM traces WHERE name = ? ORDER BY id DESC LIMIT 1`, name)
	if errors.Is(err, sql.ErrNoRows) {
		if id, perr := strconv.ParseInt(name, 10, 64); perr == nil {
			err = db.Get(&info, `SELECT `+infoColumns+` FROM traces WHERE id = ?`, id)
		}
	}
	if errors.Is(err, sql.ErrNoRows) {
		return Info{}, fmt.Errorf("no trace %q in the store", name)
	}
	if err != nil {
		return Info{}, fmt.Errorf("find trace %q: %w", name, err)
	}
	return info, nil
}

// Load reads a stored trace whole: name is a trace name or id (see Find).
// Prefer Open, which streams: a loaded call takes far more memory than a
// compiled one.
func Load(db *sqlx.DB, name string) (*Trace, error) {
	s, err := Open(context.Background(), db, name)
	if err != nil {
		return nil, err
	}
	defer s.Close()
	calls := make([]*ptr.Call, 0, s.Calls)
	var block []ptr.Call // copies of the calls, which s reuses
	for {
		c, err := s.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		if len(block) == cap(block) {
			block = make([]ptr.Call, 0, max(1, min(batchCalls, s.Calls-len(calls))))
		}
		block = append(block, *c)
		calls = append(calls, &block[len(block)-1])
	}
	return &Trace{Info: s.Info, Header: s.Header, Calls: calls}, nil
}

// CallSource streams the stored calls of one trace in order. A goroutine
// reads the rows ahead while Next parses the parameters, so reading the
// store, parsing and the caller's work overlap. Close it when stopping
// before io.EOF: until then it holds a connection of the store.
type CallSource struct {
	batches chan callBatch
	stop    chan struct{}
	exited  chan struct{}
	once    sync.Once
	cur     []ptr.Call
	pos     int
	err     error // sticky: io.EOF, a read error or errClosed
	slab    ptr.ParamSlab
}

// callBatch is a run of calls read from the store, their parameters not
// parsed yet, or the error that ended the read.
type callBatch struct {
	calls []ptr.Call
	err   error
}

const (
	batchCalls   = 1024
	batchesAhead = 4
)

var errClosed = errors.New("call source closed")

// Calls returns the calls of the trace with the given id as a ptr.Source.
func Calls(db *sqlx.DB, id int64) (*CallSource, error) {
	rows, err := db.Query(`SELECT func, call_time, ret_time, line, file, trace_line, call_params, ret_params
		FROM calls WHERE trace_id = ? ORDER BY seq`, id)
	if err != nil {
		return nil, fmt.Errorf("load calls of trace %d: %w", id, err)
	}
	s := &CallSource{
		batches: make(chan callBatch, batchesAhead),
		stop:    make(chan struct{}),
		exited:  make(chan struct{}),
	}
	go s.read(rows, id)
	return s, nil
}

// read sends the rows in batches until the end, an error or Close.
func (s *CallSource) read(rows *sql.Rows, id int64) {
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
	intern := func(b []byte) string {
		if v, ok := names[string(b)]; ok {
			return v
		}
		v := string(b)
		names[v] = v
		return v
	}
	var fn, file sql.RawBytes
	calls := make([]ptr.Call, 0, batchCalls)
	for rows.Next() {
		calls = calls[:len(calls)+1]
		c := &calls[len(calls)-1]
		if err := rows.Scan(&fn, &c.CallTime, &c.RetTime, &c.Line, &file, &c.TraceLine, &c.InText, &c.OutText); err != nil {
			send(callBatch{err: fmt.Errorf("load calls of trace %d: %w", id, err)})
			return
		}
		c.Func, c.File = intern(fn), intern(file)
		if len(calls) == cap(calls) {
			if !send(callBatch{calls: calls}) {
				return
			}
			calls = make([]ptr.Call, 0, batchCalls)
		}
	}
	b := callBatch{calls: calls}
	if err := rows.Err(); err != nil {
		b.err = fmt.Errorf("load calls of trace %d: %w", id, err)
	}
	send(b)
}

// Next returns the next call, or io.EOF after the last one.
func (s *CallSource) Next() (*ptr.Call, error) {
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
func (s *CallSource) Close() error {
	s.once.Do(func() { close(s.stop) })
	<-s.exited
	s.cur, s.pos = nil, 0
	if s.err == nil || s.err == io.EOF {
		s.err = errClosed
	}
	return nil
}
