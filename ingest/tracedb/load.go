package tracedb

import (
	"database/sql"
	"errors"
	"fmt"
	"io"
	"strconv"

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
func Load(db *sqlx.DB, name string) (*Trace, error) {
	info, err := Find(db, name)
	if err != nil {
		return nil, err
	}
	var text string
	if err := db.Get(&text, `SELECT header FROM traces WHERE id = ?`, info.ID); err != nil {
		return nil, fmt.Errorf("load trace %s: %w", info.Name, err)
	}
	h, err := ptr.ParseHeader(text, info.Name)
	if err != nil {
		return nil, err
	}
	src, err := Calls(db, info.ID)
	if err != nil {
		return nil, err
	}
	defer src.Close()
	calls := make([]*ptr.Call, 0, info.Calls)
	for {
		c, err := src.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		calls = append(calls, c)
	}
	if len(calls) != info.Calls {
		return nil, fmt.Errorf("load trace %s: %d calls stored, the trace row says %d", info.Name, len(calls), info.Calls)
	}
	return &Trace{Info: info, Header: h, Calls: calls}, nil
}

// CallSource streams the stored calls of one trace in order; it holds a
// read of the store open until Close or the end.
type CallSource struct {
	rows  *sql.Rows
	names map[string]string
	fn    sql.RawBytes // scan buffers of the interned columns
	file  sql.RawBytes
	calls []ptr.Call
	slab  ptr.ParamSlab
	done  bool
}

// Calls returns the calls of the trace with the given id as a ptr.Source.
// Close it when stopping before io.EOF.
func Calls(db *sqlx.DB, id int64) (*CallSource, error) {
	rows, err := db.Query(`SELECT func, call_time, ret_time, line, file, trace_line, call_params, ret_params
		FROM calls WHERE trace_id = ? ORDER BY seq`, id)
	if err != nil {
		return nil, fmt.Errorf("load calls of trace %d: %w", id, err)
	}
	return &CallSource{rows: rows, names: make(map[string]string)}, nil
}

// Next returns the next call, or io.EOF after the last one.
func (s *CallSource) Next() (*ptr.Call, error) {
	if s.done {
		return nil, io.EOF
	}
	if !s.rows.Next() {
		s.done = true
		err := s.rows.Err()
		s.rows.Close()
		if err != nil {
			return nil, fmt.Errorf("load calls: %w", err)
		}
		return nil, io.EOF
	}
	if len(s.calls) == cap(s.calls) {
		s.calls = make([]ptr.Call, 0, 256)
	}
	s.calls = s.calls[:len(s.calls)+1]
	c := &s.calls[len(s.calls)-1]
	if err := s.rows.Scan(&s.fn, &c.CallTime, &c.RetTime, &c.Line, &s.file, &c.TraceLine, &c.InText, &c.OutText); err != nil {
		s.Close()
		return nil, fmt.Errorf("load calls: %w", err)
	}
	c.Func, c.File = s.intern(s.fn), s.intern(s.file)
	c.In, c.Pattern = s.slab.Parse(c.InText)
	c.Out, _ = s.slab.Parse(c.OutText)
	return c, nil
}

// Close ends the read early.
func (s *CallSource) Close() error {
	s.done = true
	return s.rows.Close()
}

// intern shares the few distinct function and file names among calls.
func (s *CallSource) intern(b []byte) string {
	if v, ok := s.names[string(b)]; ok {
		return v
	}
	v := string(b)
	s.names[v] = v
	return v
}
