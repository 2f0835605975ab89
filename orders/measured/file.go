package measured

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"time"
)

// header is the first line of the file.
type header struct {
	Format   string  `json:"format"`
	Version  int     `json:"version"`
	Program  string  `json:"program"`
	Machine  string  `json:"machine"`
	Migrate  bool    `json:"migrate"`
	Started  string  `json:"started"`
	Orders   int64   `json:"orders"`
	Makespan float64 `json:"makespan"`
	Workers  int     `json:"workers"`
}

// workerLine is every other line.
type workerLine struct {
	Worker  int     `json:"worker"`
	Orders  int64   `json:"orders"`
	Busy    float64 `json:"busy"`
	Waiting float64 `json:"waiting"`
	Idle    float64 `json:"idle"`
}

// Error is a defect of a measured-run file: its name, the 1-based line
// (0 for the file as a whole) and what was expected.
type Error struct {
	File string
	Line int
	Msg  string
}

func (e *Error) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg)
	}
	return fmt.Sprintf("%s: %s", e.File, e.Msg)
}

// Write writes r to w.
func Write(w io.Writer, r *Execution) error {
	bw := bufio.NewWriter(w)
	enc := json.NewEncoder(bw)
	h := header{Format: Format, Version: Version, Program: r.Program, Machine: r.Machine, Migrate: r.Migrate,
		Started: r.Started.UTC().Format(time.RFC3339), Orders: r.Orders, Makespan: r.Makespan, Workers: len(r.Workers)}
	if err := enc.Encode(h); err != nil {
		return err
	}
	for i, wk := range r.Workers {
		if err := enc.Encode(workerLine{Worker: i, Orders: wk.Orders, Busy: wk.Busy, Waiting: wk.Waiting, Idle: wk.Idle}); err != nil {
			return err
		}
	}
	return bw.Flush()
}

// maxLine bounds a line: the header holds two names and a few numbers.
const maxLine = 64 << 10

// Read reads and checks a measured-run file; name is used in errors,
// which are *Error values naming the line.
func Read(rd io.Reader, name string) (*Execution, error) {
	sc := bufio.NewScanner(rd)
	sc.Buffer(make([]byte, 4096), maxLine)
	fail := func(line int, format string, args ...any) (*Execution, error) {
		return nil, &Error{File: name, Line: line, Msg: fmt.Sprintf(format, args...)}
	}
	line := 0
	next := func(v any) (bool, error) {
		for sc.Scan() {
			line++
			text := bytes.TrimSpace(sc.Bytes())
			if len(text) == 0 {
				continue
			}
			dec := json.NewDecoder(bytes.NewReader(text))
			dec.DisallowUnknownFields()
			if err := dec.Decode(v); err != nil {
				return false, &Error{File: name, Line: line, Msg: fmt.Sprintf("%v (expected one JSON object per line)", err)}
			}
			if dec.More() {
				return false, &Error{File: name, Line: line, Msg: "more than one JSON value on the line (expected one object)"}
			}
			return true, nil
		}
		if err := sc.Err(); err != nil {
			return false, &Error{File: name, Line: line + 1, Msg: readError(err)}
		}
		return false, nil
	}
	var h header
	switch ok, err := next(&h); {
	case err != nil:
		return nil, err
	case !ok:
		return fail(0, "empty file (expected a %s header line)", Format)
	}
	hline := line
	if h.Format != Format || h.Version != Version {
		return fail(hline, "format %q version %d (expected %q version %d)", h.Format, h.Version, Format, Version)
	}
	if h.Workers < 1 || h.Workers > MaxWorkers {
		return fail(hline, "workers %d (expected 1 to %d)", h.Workers, MaxWorkers)
	}
	started, err := time.Parse(time.RFC3339, h.Started)
	if err != nil {
		return fail(hline, "started %q (expected an RFC 3339 time)", h.Started)
	}
	r := &Execution{Program: h.Program, Machine: h.Machine, Migrate: h.Migrate, Started: started.UTC(),
		Orders: h.Orders, Makespan: h.Makespan, Workers: make([]Worker, 0, h.Workers)}
	lines := []int{hline}
	for {
		var wl workerLine
		ok, err := next(&wl)
		if err != nil {
			return nil, err
		}
		if !ok {
			break
		}
		if len(r.Workers) == h.Workers {
			return fail(line, "a line after the %d workers the header announced", h.Workers)
		}
		if wl.Worker != len(r.Workers) {
			return fail(line, "worker %d (expected worker %d: one line per worker, in order)", wl.Worker, len(r.Workers))
		}
		r.Workers = append(r.Workers, Worker{Orders: wl.Orders, Busy: wl.Busy, Waiting: wl.Waiting, Idle: wl.Idle})
		lines = append(lines, line)
	}
	if len(r.Workers) < h.Workers {
		return fail(line, "%d of the %d workers the header announced (expected a line per worker: truncated file?)", len(r.Workers), h.Workers)
	}
	if at, err := r.check(); err != nil {
		return fail(lines[at-1], "%v", err)
	}
	return r, nil
}

func readError(err error) string {
	if errors.Is(err, bufio.ErrTooLong) {
		return fmt.Sprintf("line longer than %d bytes (expected a short JSON object)", maxLine)
	}
	return err.Error()
}
