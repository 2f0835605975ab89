package ptr

import "github.com/presage-dvm/presage/sim/trace"

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"

	"github.com/klauspost/compress/gzip"
)

const (
	bufSize = 64 << 10
	// maxLine bounds one physical line: real traces never exceed a few
	// hundred bytes, and an unbounded line would hold the whole input.
	maxLine = 1 << 20
	// maxHeader bounds the preamble: real ones are about 2 KB.
	maxHeader = 1 << 20
)

// Reader reads a trace: the header at construction, then one call per
// Next. It is not safe for concurrent use.
type Reader struct {
	name    string
	br      *bufio.Reader // the text; lines reads it, drain its tail
	lines   *lineReader
	closers []io.Closer // the file of OpenFile, the inflater
	lineNo  int         // physical lines read
	nbytes  int64       // uncompressed bytes read

	hdr     trace.Header
	pending pendingCall // the call line that starts the next call
	done    bool        // the Event_ line has been read
	eof     bool        // io.EOF has been returned
	err     error       // sticky

	text  []byte          // parameter lines of one side, being joined
	names *interner       // function and file names
	texts *interner       // parameter texts, up to maxTexts
	calls []trace.Call    // slab the returned calls are cut from
	slab  trace.ParamSlab // where the returned parameters are cut from

	// textOnly: Next leaves In and Out nil and reuses one Call (TextOnly).
	textOnly bool
	one      trace.Call
}

// maxTexts bounds the interned parameter texts: a trace repeats a few
// hundred distinct texts millions of times, and interning saves a copy of
// each repetition, but a trace of ever new texts must not grow the map
// without end.
const maxTexts = 1 << 14

type pendingCall struct {
	name, file string
	time       float64
	line       int
	traceLine  int
}

// OpenFile opens a trace file (plain or gzip) and reads its header. Close
// the Reader to close the file.
func OpenFile(path string) (*Reader, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	r, err := NewReader(f, path)
	if err != nil {
		f.Close()
		return nil, err
	}
	r.closers = append(r.closers, f)
	return r, nil
}

// Sniff checks that head, the first bytes of a file, can begin a trace —
// gzip-compressed, or text without NUL bytes — so that a file that is not
// one is refused before it is read whole.
func Sniff(head []byte, name string) error {
	if len(head) >= 2 && head[0] == 0x1f && head[1] == 0x8b {
		return nil
	}
	if i := bytes.IndexByte(head, 0); i >= 0 {
		return newError(name, 0, nil, "not a trace: NUL byte at offset %d, expected text or gzip", i)
	}
	return nil
}

// NewReader reads the header of the trace in rd (gzip-compressed when it
// starts with the gzip magic bytes). name is used in error messages.
func NewReader(rd io.Reader, name string) (*Reader, error) { return newReader(rd, name, false) }

// NewConcurrentReader is NewReader inflating a gzip-compressed trace in a
// goroutine beside the parsing. Close the Reader to stop the goroutine.
func NewConcurrentReader(rd io.Reader, name string) (*Reader, error) {
	return newReader(rd, name, true)
}

func newReader(rd io.Reader, name string, concurrent bool) (*Reader, error) {
	r := &Reader{name: name, names: newInterner(math.MaxInt), texts: newInterner(maxTexts)}
	br := bufio.NewReaderSize(rd, bufSize)
	if magic, _ := br.Peek(2); len(magic) == 2 && magic[0] == 0x1f && magic[1] == 0x8b {
		gz, err := gzip.NewReader(br)
		if err != nil {
			return nil, r.errorf(0, err, "gzip: %v", err)
		}
		var text io.Reader = gz
		if concurrent {
			in := newInflater(gz)
			r.closers = append(r.closers, in)
			text = in
		}
		br = bufio.NewReaderSize(text, bufSize)
	}
	r.br, r.lines = br, newLineReader(br, lineBufSize)
	if err := r.readHeader(); err != nil {
		r.Close()
		return nil, err
	}
	return r, nil
}

// Close closes the file opened by OpenFile and stops the inflating
// goroutine of NewConcurrentReader; it does nothing for a Reader made by
// NewReader.
func (r *Reader) Close() error {
	var first error
	for _, c := range r.closers {
		if err := c.Close(); err != nil && first == nil {
			first = err
		}
	}
	r.closers = nil
	return first
}

// TextOnly makes Next fill the parameter texts (InText, OutText) and the
// pattern of the calls but not their parsed parameters (In, Out), and
// return one reused Call, valid until the next call of Next: for a caller
// that keeps the texts only, as the ingest does, parsing and a Call per
// call are a third of the time spent reading.
func (r *Reader) TextOnly() { r.textOnly = true }

// Header returns the trace header.
func (r *Reader) Header() *trace.Header { return &r.hdr }

// Name returns the name given to NewReader.
func (r *Reader) Name() string { return r.name }

// TextBytes returns the number of uncompressed bytes read so far; after
// Next has returned io.EOF, the size of the whole text.
func (r *Reader) TextBytes() int64 { return r.nbytes }

func (r *Reader) errorf(line int, err error, format string, args ...any) *Error {
	return newError(r.name, line, err, format, args...)
}

func newError(file string, line int, err error, format string, args ...any) *Error {
	return &Error{File: file, Line: line, Msg: fmt.Sprintf(format, args...), Err: err}
}

// readRaw returns the next physical line without its line end, valid
// until the next call, or io.EOF.
func (r *Reader) readRaw() ([]byte, error) {
	raw, nul, err := r.lines.next()
	if err == errLineTooLong {
		return nil, r.errorf(r.lineNo+1, nil, "line longer than %d bytes: not a trace", maxLine)
	}
	if err != nil && err != io.EOF {
		return nil, r.errorf(r.lineNo+1, err, "read error: %v", err)
	}
	if len(raw) == 0 {
		return nil, io.EOF
	}
	r.lineNo++
	r.nbytes += int64(len(raw))
	if nul >= 0 {
		return nil, r.errorf(r.lineNo, nil, "not a Lib-DVM trace: NUL byte at column %d, expected text (a damaged or padded file?)", nul+1)
	}
	if raw[len(raw)-1] == '\n' {
		raw = raw[:len(raw)-1]
	}
	if len(raw) > 0 && raw[len(raw)-1] == '\r' {
		raw = raw[:len(raw)-1]
	}
	return raw, nil
}

// readKept returns the next kept line (docs/model.md §9.2), or io.EOF.
func (r *Reader) readKept() ([]byte, error) {
	for {
		// A trace has an empty line after each function line: skip them
		// here, without the generality of readRaw.
		n := r.lines.skipEmpty()
		r.lineNo += n
		r.nbytes += int64(n)
		raw, err := r.readRaw()
		if err != nil {
			return nil, err
		}
		if b, ok := keep(raw); ok {
			return b, nil
		}
	}
}

func (r *Reader) setPending(fl *funcLine) {
	p := &r.pending
	if string(fl.file) != p.file { // nearly always the same
		p.file = r.names.get(fl.file)
	}
	p.name, p.time, p.line, p.traceLine = r.names.get(fl.name), fl.time, fl.line, r.lineNo
}

// readHeader reads everything up to the first call line after
// ret_dvm_Init (docs/model.md §9.5) and keeps that call line pending.
func (r *Reader) readHeader() error {
	var (
		lines         []string
		size          int
		kept, sawFunc bool
		sawInit       bool
		fl            funcLine
	)
	for {
		raw, err := r.readRaw()
		if err == io.EOF {
			switch {
			case !kept:
				return r.errorf(0, nil, "empty file")
			case !sawFunc:
				return r.errorf(0, nil, "not a Lib-DVM trace: no call_/ret_ line with TIME, LINE and FILE")
			case !sawInit:
				return r.errorf(r.lineNo, nil, "truncated trace: no ret_dvm_Init line")
			}
			return r.errorf(r.lineNo, nil, "truncated trace: no Event_dvm_exit line")
		}
		if err != nil {
			return err
		}
		if size += len(raw) + 1; size > maxHeader {
			if !sawFunc {
				return r.errorf(r.lineNo, nil, "not a Lib-DVM trace: no call_/ret_ line in the first %d bytes", maxHeader)
			}
			return r.errorf(r.lineNo, nil, "no ret_dvm_Init in the first %d bytes: not a trace", maxHeader)
		}
		b, ok := keep(raw)
		if ok {
			kept = true
			k, msg := classify(b, &fl)
			if msg != "" {
				return r.errorf(r.lineNo, nil, "%s", msg)
			}
			if k != paramLine && !sawFunc {
				sawFunc = true
				r.hdr.RootLine, r.hdr.RootFile = fl.line, string(fl.file)
			}
			if sawInit && k == callLine {
				r.setPending(&fl)
				break
			}
			if sawInit && k == eventLine {
				r.done = true // a trace without calls
				break
			}
			if k == retLine && string(fl.name) == "dvm_Init" {
				sawInit = true
			}
		}
		lines = append(lines, string(raw))
	}
	r.hdr.Lines = lines
	if err := fillHeader(&r.hdr, r.name); err != nil {
		return err
	}
	return nil
}

// ParseHeader rebuilds a trace.Header from its lines joined by newlines (as
// the store keeps them). name is used in error messages.
func ParseHeader(text, name string) (*trace.Header, error) {
	h := &trace.Header{Lines: strings.Split(text, "\n")}
	var fl funcLine
	for i, l := range h.Lines {
		b, ok := keep([]byte(l))
		if !ok {
			continue
		}
		k, msg := classify(b, &fl)
		if msg != "" {
			return nil, newError(name, i+1, nil, "%s", msg)
		}
		if k != paramLine {
			h.RootLine, h.RootFile = fl.line, string(fl.file)
			break
		}
	}
	if err := fillHeader(h, name); err != nil {
		return nil, err
	}
	return h, nil
}

// fillHeader sets the fields of h read from its lines (docs/model.md §9.5).
func fillHeader(h *trace.Header, name string) *Error {
	errorf := func(line int, format string, args ...any) *Error {
		return newError(name, line, nil, format, args...)
	}
	for _, l := range h.Lines {
		l = strings.TrimLeft(l, " \t")
		if l == "" {
			continue
		}
		if rest, ok := strings.CutPrefix(l, "RTS VERSION"); ok {
			_, v, _ := strings.Cut(rest, "=")
			h.RTSVersion = strings.TrimSpace(v)
		}
		break
	}
	if v, line, ok := headerValue(h.Lines, "ProcCount"); ok {
		n, err := strconv.Atoi(firstWord(v))
		if err != nil {
			return errorf(line, "ProcCount: expected an integer, got %q", firstWord(v))
		}
		if n < 1 {
			return errorf(line, "ProcCount=%d: expected the traced run's processor count, at least 1", n)
		}
		h.ProcCount = n
	}
	v, line, ok := headerValue(h.Lines, "VProcCount")
	if !ok {
		return errorf(0, "header: VProcCount= missing")
	}
	n, err := strconv.Atoi(firstWord(v))
	if err != nil {
		return errorf(line, "VProcCount: expected an integer, got %q", firstWord(v))
	}
	if n < 0 {
		return errorf(line, "VProcCount=%d: expected a processor count, at least 0", n)
	}
	h.VProcCount = n
	if n == 0 {
		return nil
	}
	v, line, ok = headerValue(h.Lines, "VPSRank")
	if !ok {
		return errorf(0, "header: VProcCount=%d but VPSRank= missing", n)
	}
	if h.VPSRank, err = strconv.Atoi(firstWord(v)); err != nil {
		return errorf(line, "VPSRank: expected an integer, got %q", firstWord(v))
	}
	v, line, ok = headerValue(h.Lines, "VPSSize")
	if !ok {
		return errorf(0, "header: VProcCount=%d but VPSSize= missing", n)
	}
	list, _, _ := strings.Cut(v, ";")
	for _, w := range strings.Fields(list) {
		d, err := strconv.Atoi(w)
		if err != nil {
			return errorf(line, "VPSSize: expected integers up to ';', got %q", w)
		}
		h.VPSSize = append(h.VPSSize, d)
	}
	return checkVPS(h, line, errorf)
}

// checkVPS checks that the virtual processor system of the header is a
// grid of rank 1..4 (the simulator's processor grids) whose sizes multiply
// to VProcCount.
func checkVPS(h *trace.Header, line int, errorf func(int, string, ...any) *Error) *Error {
	if h.VPSRank < 1 || h.VPSRank > 4 || len(h.VPSSize) != h.VPSRank {
		return errorf(line, "VPSRank=%d, VPSSize=%v: expected a rank from 1 to 4 and as many sizes", h.VPSRank, h.VPSSize)
	}
	n := 1
	for _, d := range h.VPSSize {
		if d < 1 || n > h.VProcCount/d {
			return errorf(line, "VPSSize=%v: expected sizes ≥ 1 whose product is VProcCount=%d", h.VPSSize, h.VProcCount)
		}
		n *= d
	}
	if n != h.VProcCount {
		return errorf(line, "VPSSize=%v: %d processors, but VProcCount=%d", h.VPSSize, n, h.VProcCount)
	}
	return nil
}

// headerValue finds the first header line holding the parameter name
// (exactly: not as the tail of a longer name) followed by '=' and returns
// the text after '=', with the 1-based line number.
func headerValue(lines []string, name string) (string, int, bool) {
	for i, l := range lines {
		for from := 0; ; {
			k := strings.Index(l[from:], name)
			if k < 0 {
				break
			}
			s := from + k
			from = s + len(name)
			if s > 0 && isNameByte(l[s-1]) {
				continue
			}
			rest := strings.TrimLeft(l[from:], " \t")
			if v, ok := strings.CutPrefix(rest, "="); ok {
				return v, i + 1, true
			}
		}
	}
	return "", 0, false
}

func isNameByte(c byte) bool {
	return c == '_' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}

// firstWord returns the first blank-delimited word of s without a
// trailing ';'.
func firstWord(s string) string {
	f := strings.Fields(s)
	if len(f) == 0 {
		return ""
	}
	return trimSemicolon(f[0])
}

// Next returns the next call: its call line, parameter lines, ret line and
// their parameter lines. It returns io.EOF after the call during which the
// first Event_ line was met (docs/model.md §9.6). Errors are *Error and final.
func (r *Reader) Next() (*trace.Call, error) {
	if r.err != nil {
		return nil, r.err
	}
	if r.done {
		if !r.eof {
			r.eof = true
			if err := r.drain(); err != nil {
				r.err = err
				return nil, err
			}
		}
		return nil, io.EOF
	}
	c, err := r.next()
	if err != nil {
		r.err = err
		return nil, err
	}
	return c, nil
}

func (r *Reader) next() (*trace.Call, error) {
	c := r.newCall()
	p := &r.pending
	c.Func, c.CallTime, c.Line, c.File, c.TraceLine = p.name, p.time, p.line, p.file, p.traceLine

	var fl funcLine
	r.text = r.text[:0]
	k, err := r.nextEvent(&fl)
	if err == io.EOF {
		return nil, r.errorf(c.TraceLine, nil, "truncated trace: call_%s at line %d has no ret_%s", c.Func, c.TraceLine, c.Func)
	}
	if err != nil {
		return nil, err
	}
	if k != retLine {
		return nil, r.errorf(c.TraceLine, nil, "truncated trace: call_%s at line %d has no ret_%s (%s%s follows at line %d)",
			c.Func, c.TraceLine, c.Func, k, fl.name, r.lineNo)
	}
	if string(fl.name) != c.Func {
		return nil, r.errorf(r.lineNo, nil, "ret_%s does not match call_%s at line %d", fl.name, c.Func, c.TraceLine)
	}
	c.RetTime = fl.time
	c.InText, c.Pattern, c.In = r.takeText(true) // the pattern of the call side only

	k, err = r.nextEvent(&fl)
	if err == io.EOF {
		return nil, r.errorf(r.lineNo, nil, "truncated trace: no Event_dvm_exit line")
	}
	if err != nil {
		return nil, err
	}
	switch k {
	case retLine:
		return nil, r.errorf(r.lineNo, nil, "ret_%s without call_%s", fl.name, fl.name)
	case callLine:
		r.setPending(&fl)
	default:
		r.done = true
	}
	c.OutText, _, c.Out = r.takeText(false)
	return c, nil
}

// nextEvent reads up to the next line that is not a parameter line,
// classifies it into fl and returns its kind; the parameter lines on the
// way are added to the text buffer. At the end of the trace it returns
// io.EOF.
func (r *Reader) nextEvent(fl *funcLine) (kind, error) {
	for {
		b, err := r.readKept()
		if err != nil {
			return 0, err
		}
		k, msg := classify(b, fl)
		if msg != "" {
			return 0, r.errorf(r.lineNo, nil, "%s", msg)
		}
		if k != paramLine {
			return k, nil
		}
		r.appendText(b)
	}
}

func (r *Reader) newCall() *trace.Call {
	if r.textOnly {
		r.one = trace.Call{}
		return &r.one
	}
	if len(r.calls) == cap(r.calls) {
		r.calls = make([]trace.Call, 0, 256)
	}
	r.calls = r.calls[:len(r.calls)+1]
	return &r.calls[len(r.calls)-1]
}

func (r *Reader) appendText(b []byte) {
	if len(r.text) > 0 {
		r.text = append(r.text, '\n')
	}
	r.text = append(r.text, b...)
}

// takeText returns the joined parameter lines, their trace.PatternOf when
// withPattern, and their parameters (none when TextOnly), and resets the
// buffer.
func (r *Reader) takeText(withPattern bool) (text, pattern string, ps trace.Params) {
	if len(r.text) == 0 {
		return "", "", nil
	}
	e := r.texts.entry(r.text)
	r.text = r.text[:0]
	if withPattern {
		pattern = e.patternOf()
	}
	if r.textOnly {
		return e.s, pattern, nil
	}
	return e.s, pattern, r.slab.Params(e.s)
}

// drain reads the tail after the Event_ line, so that TextBytes is the
// whole size and a damaged gzip stream is noticed.
func (r *Reader) drain() error {
	w := &textOnly{line: r.lineNo}
	n, err := w.Write(r.lines.rest())
	r.nbytes += int64(n)
	if err == nil {
		// The rest of the text, unless it ended in the last read for lines.
		if err = r.lines.err; err == nil {
			var m int64
			m, err = io.Copy(w, r.br)
			r.nbytes += m
		}
	}
	if w.nulAt > 0 {
		return r.errorf(w.line, nil, "NUL byte after the Event_ line: expected text to the end (a damaged or padded file?)")
	}
	if err != nil && !errors.Is(err, io.EOF) {
		return r.errorf(r.lineNo, err, "read error after the Event_ line: %v", err)
	}
	return nil
}

// textOnly discards text, counting its lines, and stops at a NUL byte.
type textOnly struct {
	line  int
	nulAt int // the line of the first NUL byte, 0 for none
}

var errNUL = errors.New("NUL byte")

func (w *textOnly) Write(p []byte) (int, error) {
	if i := bytes.IndexByte(p, 0); i >= 0 {
		w.nulAt = w.line + 1 + bytes.Count(p[:i], []byte{'\n'})
		w.line = w.nulAt
		return i, errNUL
	}
	w.line += bytes.Count(p, []byte{'\n'})
	return len(p), nil
}
