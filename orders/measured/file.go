package measured

import (
	"bufio"
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"time"

	"github.com/presage-dvm/presage/orders/ordersched"
)

// header is the first line of the file.
type header struct {
	Format    string  `json:"format"`
	Version   int     `json:"version"`
	Program   string  `json:"program"`
	Machine   string  `json:"machine"`
	Scheduler string  `json:"scheduler,omitempty"` // version 2 on; version 1 ran FIFO
	Migrate   bool    `json:"migrate"`
	Started   string  `json:"started"`
	Orders    int64   `json:"orders"`
	Makespan  float64 `json:"makespan"`
	Workers   int     `json:"workers"`
	Cores     int     `json:"cores,omitempty"` // the workers are the cores of worker processes
}

// workerLine is a line of a worker, after the header.
type workerLine struct {
	Worker  int     `json:"worker"`
	Orders  int64   `json:"orders"`
	Busy    float64 `json:"busy"`
	Waiting float64 `json:"waiting"`
	Idle    float64 `json:"idle"`
}

// orderLine is a line of an order, after the workers' (version 2).
type orderLine struct {
	Order  int64   `json:"order"`
	Parent int64   `json:"parent"`
	Child  int     `json:"child"`
	Proc   string  `json:"proc"`
	Made   float64 `json:"made"`
	// Runs are the stretches as [worker, start, end]: a third of the
	// bytes of named fields, in a file with a line per order.
	Runs [][]float64 `json:"runs"`
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

// Write writes r to w in the current version. A run without a scheduler
// (read from a version 1 file) ran FIFO, the only rule then.
func Write(w io.Writer, r *Execution) error {
	bw := bufio.NewWriter(w)
	enc := json.NewEncoder(bw)
	h := header{Format: Format, Version: Version, Program: r.Program, Machine: r.Machine,
		Scheduler: cmp.Or(r.Scheduler, string(ordersched.FIFO)), Migrate: r.Migrate,
		Started: r.Started.UTC().Format(time.RFC3339), Orders: r.Orders, Makespan: r.Makespan, Workers: len(r.Workers), Cores: r.Cores}
	if err := enc.Encode(h); err != nil {
		return err
	}
	for i, wk := range r.Workers {
		if err := enc.Encode(workerLine{Worker: i, Orders: wk.Orders, Busy: wk.Busy, Waiting: wk.Waiting, Idle: wk.Idle}); err != nil {
			return err
		}
	}
	for _, o := range r.Schedule {
		ol := orderLine{Order: o.ID, Parent: o.Parent, Child: o.Child, Proc: o.Proc, Made: o.Made, Runs: make([][]float64, len(o.Stretches))}
		for i, s := range o.Stretches {
			ol.Runs[i] = []float64{float64(s.Worker), s.Start, s.End}
		}
		if err := enc.Encode(ol); err != nil {
			return err
		}
	}
	return bw.Flush()
}

// maxLine bounds a line. The header holds two names and a few numbers, a
// worker's line a few numbers; an order's line grows with its stretches
// (about 30 bytes each): a master suspended at every one of 100,000 Gets
// still fits.
const maxLine = 4 << 20

// lines reads a file's non-blank lines as JSON objects, counting lines for
// errors.
type lines struct {
	sc   *bufio.Scanner
	name string
	line int // of the last line read, 1-based
}

// errorf is an *Error at the last line read.
func (l *lines) errorf(format string, args ...any) error {
	return &Error{File: l.name, Line: l.line, Msg: fmt.Sprintf(format, shortened(args)...)}
}

// maxQuoted is how many bytes of a text from the file an error quotes: a
// header field of megabytes would otherwise be echoed whole.
const maxQuoted = 64

// shortened returns args with every string longer than maxQuoted cut to
// its first maxQuoted bytes and "…".
func shortened(args []any) []any {
	out := make([]any, len(args))
	for i, a := range args {
		out[i] = a
		if s, ok := a.(string); ok && len(s) > maxQuoted {
			out[i] = s[:maxQuoted] + "…"
		}
	}
	return out
}

// next decodes the next non-blank line into v and reports whether there
// was one; what says what the line should be, for errors.
func (l *lines) next(v any, what string) (bool, error) {
	for l.sc.Scan() {
		l.line++
		text := bytes.TrimSpace(l.sc.Bytes())
		if len(text) == 0 {
			continue
		}
		dec := json.NewDecoder(bytes.NewReader(text))
		dec.DisallowUnknownFields()
		if err := dec.Decode(v); err != nil {
			return false, l.errorf("%v (expected %s: one JSON object)", err, what)
		}
		if dec.More() {
			return false, l.errorf("more than one JSON value on the line (expected %s: one object)", what)
		}
		return true, nil
	}
	if err := l.sc.Err(); err != nil {
		l.line++
		if errors.Is(err, bufio.ErrTooLong) {
			return false, l.errorf("line longer than %d bytes (expected a JSON object)", maxLine)
		}
		return false, l.errorf("%v", err)
	}
	return false, nil
}

// Read reads and checks a measured-run file of version 1 or 2; name is
// used in errors, which are *Error values naming the line.
func Read(rd io.Reader, name string) (*Execution, error) {
	l := &lines{sc: bufio.NewScanner(rd), name: name}
	l.sc.Buffer(make([]byte, 4096), maxLine)
	var h header
	switch ok, err := l.next(&h, "the header"); {
	case err != nil:
		return nil, err
	case !ok:
		return nil, &Error{File: name, Msg: fmt.Sprintf("empty file (expected a %s header line)", Format)}
	}
	hline := l.line
	if err := h.check(l); err != nil {
		return nil, err
	}
	started, _ := time.Parse(time.RFC3339, h.Started) // checked
	r := &Execution{Program: h.Program, Machine: h.Machine, Scheduler: h.Scheduler, Migrate: h.Migrate, Started: started.UTC(),
		Orders: h.Orders, Makespan: h.Makespan, Workers: make([]Worker, 0, h.Workers), Cores: h.Cores}
	at := []int{hline}
	for len(r.Workers) < h.Workers {
		var wl workerLine
		ok, err := l.next(&wl, fmt.Sprintf("worker %d's line", len(r.Workers)))
		if err != nil {
			return nil, err
		}
		if !ok {
			return nil, l.errorf("%d of the %d workers the header announced (expected a line per worker: truncated file?)", len(r.Workers), h.Workers)
		}
		if wl.Worker != len(r.Workers) {
			return nil, l.errorf("worker %d (expected worker %d: one line per worker, in order)", wl.Worker, len(r.Workers))
		}
		r.Workers = append(r.Workers, Worker{Orders: wl.Orders, Busy: wl.Busy, Waiting: wl.Waiting, Idle: wl.Idle})
		at = append(at, l.line)
	}
	if i, err := r.check(); err != nil {
		return nil, &Error{File: name, Line: at[i-1], Msg: err.Error()}
	}
	if h.Version == 1 {
		switch ok, err := l.next(&workerLine{}, "the end of the file"); {
		case err != nil:
			return nil, err
		case ok:
			return nil, l.errorf("a line after the %d workers the header announced", h.Workers)
		}
		return r, nil
	}
	if err := readSchedule(r, l); err != nil {
		return nil, err
	}
	return r, nil
}

// check returns what is wrong with the header, read as l's last line.
func (h *header) check(l *lines) error {
	if h.Format != Format || h.Version < 1 || h.Version > Version {
		return l.errorf("format %q version %d (expected %q version 1 to %d)", h.Format, h.Version, Format, Version)
	}
	if h.Workers < 1 || h.Workers > MaxWorkers {
		return l.errorf("workers %d (expected 1 to %d)", h.Workers, MaxWorkers)
	}
	if h.Cores < 0 || h.Cores > 0 && h.Workers%h.Cores != 0 {
		return l.errorf("cores %d of %d workers (expected the workers to be the cores of processes of as many cores each)", h.Cores, h.Workers)
	}
	if _, err := time.Parse(time.RFC3339, h.Started); err != nil {
		return l.errorf("started %q (expected an RFC 3339 time)", h.Started)
	}
	switch {
	case h.Version == 1 && h.Scheduler != "":
		return l.errorf("scheduler %q in a version 1 file (expected none: version 1 runs were FIFO)", h.Scheduler)
	case h.Version > 1 && !slices.Contains(ordersched.All, ordersched.Name(h.Scheduler)):
		return l.errorf("scheduler %q (expected one of %s)", h.Scheduler, ordersched.List())
	}
	return nil
}

// readSchedule reads the order lines of a version 2 file into r.Schedule:
// none (the run did not record its schedule) or one per order of the
// header, each checked as it comes (docs/orders.md, "Measured runs").
func readSchedule(r *Execution, l *lines) error {
	// children[i] counts the children of order i+1 read so far: the place
	// of its next one.
	var children []int
	for {
		id := int64(len(r.Schedule)) + 1
		var ol orderLine
		ok, err := l.next(&ol, fmt.Sprintf("order %d's line", id))
		if err != nil {
			return err
		}
		if !ok {
			break
		}
		switch {
		case id > r.Orders:
			return l.errorf("a line after the %d orders the header announced", r.Orders)
		case ol.Order != id:
			return l.errorf("order %d (expected order %d: one line per order, numbered from 1 in order)", ol.Order, id)
		}
		o, err := r.order(&ol, children)
		if err != nil {
			return l.errorf("order %d: %v", id, err)
		}
		if id > 1 {
			children[o.Parent-1]++
		}
		children = append(children, 0)
		r.Schedule = append(r.Schedule, o)
	}
	if n := int64(len(r.Schedule)); n > 0 && n < r.Orders {
		return l.errorf("%d of the %d orders the header announced (expected a line per order, or none: truncated file?)", n, r.Orders)
	}
	return nil
}
