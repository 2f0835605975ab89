package ordertrace

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"

	"github.com/presage-dvm/presage/orders/tracefile"
	"github.com/presage-dvm/presage/sim/machine"
)

const bufSize = 64 << 10

var _ Scanner = (*Reader)(nil)

// Reader reads an order trace: the header at construction, then one order
// per Next. It validates as it goes (docs/orders.md, "Validation"): every
// rule is checked in this one pass except deadlocks among several orders,
// which sim/workspan.Check finds. Next returns the first defect instead of
// io.EOF when one is only known at the end (a request for an order that
// never came). A Reader is not safe for concurrent use.
type Reader struct {
	name   string
	br     *bufio.Reader
	closer io.Closer
	line   int64
	long   []byte // a line longer than the buffer, being joined
	hdr    Header
	dec    *tracefile.Decoder
	chk    *checker
	err    error // sticky, io.EOF at the end
}

// OpenFile opens an order trace file (plain or gzip) and reads its header.
// Close the Reader to close the file.
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
	r.closer = f
	return r, nil
}

// NewReader reads the header of the order trace in rd (gzip-compressed
// when it starts with the gzip magic bytes). name is used in error
// messages.
func NewReader(rd io.Reader, name string) (*Reader, error) {
	r := &Reader{name: name, dec: tracefile.NewDecoder(), chk: newChecker()}
	br := bufio.NewReaderSize(rd, bufSize)
	if magic, _ := br.Peek(2); len(magic) == 2 && magic[0] == 0x1f && magic[1] == 0x8b {
		gz, err := gzip.NewReader(br)
		if err != nil {
			return nil, &Error{File: name, Msg: fmt.Sprintf("gzip: %v", err), Err: err}
		}
		br = bufio.NewReaderSize(gz, bufSize)
	}
	r.br = br
	line, err := r.readLine()
	if err == io.EOF {
		return nil, r.errorf("empty file (expected a header line %s)", headerExample)
	}
	if err != nil {
		return nil, err
	}
	if r.hdr, err = parseHeader(line); err != nil {
		return nil, r.errorf("%v", err)
	}
	return r, nil
}

// Header returns the trace's header.
func (r *Reader) Header() Header { return r.hdr }

// Close closes the file opened by OpenFile; it does nothing for a Reader
// made by NewReader.
func (r *Reader) Close() error {
	if r.closer == nil {
		return nil
	}
	return r.closer.Close()
}

// Next returns the next order, io.EOF after the last one, or an *Error.
// The returned Order is the caller's: later calls do not change it.
func (r *Reader) Next() (*Order, error) {
	if r.err != nil {
		return nil, r.err
	}
	o, err := r.next(nil)
	if err != nil {
		r.err = err
	}
	return o, err
}

// Scan is Next into o, reusing o's lists: for a caller that keeps nothing
// of an order once it has used it, reading costs no fresh memory.
func (r *Reader) Scan(o *Order) error {
	if r.err == nil {
		_, r.err = r.next(o)
	}
	return r.err
}

// next reads the next order, into a fresh Order when into is nil.
func (r *Reader) next(into *Order) (*Order, error) {
	line, err := r.readLine()
	if err == io.EOF {
		return nil, r.end()
	}
	if err != nil {
		return nil, err
	}
	if len(bytes.TrimSpace(line)) == 0 {
		return nil, r.errorf("empty line (expected an order)")
	}
	o := into
	if o == nil {
		o, err = r.dec.Decode(line)
	} else {
		err = r.dec.DecodeInto(line, o)
	}
	if err != nil {
		return nil, r.errorf("%v", err)
	}
	first := r.line
	for r.continued() {
		line, err := r.readLine()
		if err != nil {
			return nil, err
		}
		if err := r.dec.More(line, o); err != nil {
			return nil, r.errorf("%v", err)
		}
	}
	if err := r.chk.add(o, first); err != nil {
		return nil, placeDefect(r.name, first, err)
	}
	return o, nil
}

// continued reports whether the next line continues the order just read
// (a version 2 continuation line).
func (r *Reader) continued() bool {
	if r.hdr.Version < 2 {
		return false
	}
	b, _ := r.br.Peek(16)
	return tracefile.Continues(b)
}

// end checks what only the end of the file decides.
func (r *Reader) end() error {
	if err := r.chk.finish(); err != nil {
		return placeDefect(r.name, r.line, err)
	}
	if n := r.chk.read(); r.hdr.Orders > 0 && n != r.hdr.Orders {
		return &Error{File: r.name, Msg: fmt.Sprintf("the header announces %d orders, the file has %d", r.hdr.Orders, n)}
	}
	return io.EOF
}

// readLine returns the next line without its newline, io.EOF at the end
// of the input, or an *Error for a last line cut short.
func (r *Reader) readLine() ([]byte, error) {
	line, err := r.br.ReadSlice('\n')
	if err == bufio.ErrBufferFull {
		r.long = append(r.long[:0], line...)
		for err == bufio.ErrBufferFull {
			line, err = r.br.ReadSlice('\n')
			r.long = append(r.long, line...)
		}
		line = r.long
	}
	switch {
	case err == io.EOF && len(line) == 0:
		return nil, io.EOF
	case err == io.EOF:
		r.line++
		return nil, r.errorf("last line truncated (expected a complete line ending in a newline)")
	case err != nil:
		return nil, &Error{File: r.name, Line: r.line + 1, Msg: fmt.Sprintf("reading: %v", err), Err: err}
	}
	r.line++
	return line[:len(line)-1], nil
}

func (r *Reader) errorf(format string, args ...any) error {
	return &Error{File: r.name, Line: r.line, Msg: fmt.Sprintf(format, args...)}
}

var headerExample = fmt.Sprintf(`{"format":%q,"version":%d,...}`, Format, Version)

// parseHeader checks the format and version before anything else, so
// that another file or a newer writer gets a message saying so rather
// than a complaint about some field.
func parseHeader(line []byte) (Header, error) {
	var id struct {
		Format  *string `json:"format"`
		Version *int    `json:"version"`
	}
	if err := json.Unmarshal(line, &id); err != nil || id.Format == nil {
		return Header{}, fmt.Errorf("not an order trace (expected a header line %s)", headerExample)
	}
	switch {
	case *id.Format != Format:
		return Header{}, fmt.Errorf("format %q is not an order trace (expected %q)", short(*id.Format), Format)
	case id.Version == nil || *id.Version < 1:
		return Header{}, fmt.Errorf("header without a valid version (expected a version from 1 to %d)", Version)
	case *id.Version > Version:
		return Header{}, fmt.Errorf("version %d is newer than this reader's %d (expected a trace of version %d or older: upgrade presage)", *id.Version, Version, Version)
	}
	var h Header
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&h); err != nil {
		return Header{}, fmt.Errorf("header: %v", err)
	}
	if h.Unit != "s" && h.Unit != "ref" {
		return Header{}, fmt.Errorf("header: unit %q (expected \"s\" or \"ref\")", short(h.Unit))
	}
	if h.Orders < 0 {
		return Header{}, fmt.Errorf("header: orders %d negative", h.Orders)
	}
	if !machine.DurationRange.Contains(h.OrderCost) || !machine.DurationRange.Contains(h.WaitCost) {
		return Header{}, fmt.Errorf("header: order_cost %v, wait_cost %v (%s each: a cost per order is added up over every order)",
			h.OrderCost, h.WaitCost, machine.DurationRange.Want(1, "seconds"))
	}
	for i, s := range h.Slowdown {
		if !(s > 0) || math.IsInf(s, 1) {
			return Header{}, fmt.Errorf("header: slowdown %d is %v (expected a finite number > 0)", i+1, s)
		}
	}
	return h, nil
}

// maxQuoted is how many bytes of a value from the file an error quotes: a
// header of megabytes would otherwise be echoed whole.
const maxQuoted = 64

// short is s cut to its first maxQuoted bytes and "…", for quoting in an
// error.
func short(s string) string {
	if len(s) <= maxQuoted {
		return s
	}
	return s[:maxQuoted] + "…"
}
