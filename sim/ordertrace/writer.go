package ordertrace

import (
	"bufio"
	"fmt"
	"io"

	"github.com/presage-dvm/presage/orders/tracefile"
)

// Writer writes an order trace: the header line at construction, then one
// line per Write. It applies the Reader's validation to every order, so a
// trace it writes without error reads back without error (deadlocks
// excepted: see sim/workspan.Check). Close must be called to flush the
// lines and to check the requests for orders not yet written.
type Writer struct {
	bw     *bufio.Writer
	chk    *checker
	line   int64
	orders int64 // announced by the header, 0 when unknown
	buf    []byte
	err    error // sticky
	// perLine is the most items of a list on one line:
	// tracefile.LineItems, fewer in tests of continuation lines.
	perLine int
}

// NewWriter writes h's line to w. Format and Version are set by the
// Writer; an empty Unit means "s".
func NewWriter(w io.Writer, h Header) (*Writer, error) {
	line, err := tracefile.AppendHeader(nil, h)
	if err != nil {
		return nil, err
	}
	wr := &Writer{bw: bufio.NewWriterSize(w, bufSize), chk: newChecker(), line: 1, orders: h.Orders, perLine: tracefile.LineItems}
	wr.bw.Write(line)
	return wr, nil
}

// Write validates o and writes its line. Orders must come in ID order.
func (w *Writer) Write(o *Order) error {
	if w.err != nil {
		return w.err
	}
	if err := w.check(o); err != nil {
		w.err = err
		return err
	}
	var lines int
	w.buf, lines = tracefile.AppendOrderLines(w.buf[:0], o, w.perLine)
	w.buf = append(w.buf, '\n')
	w.line += int64(lines - 1)
	if _, err := w.bw.Write(w.buf); err != nil {
		w.err = err
		return err
	}
	return nil
}

// check validates o (NaN, which no file can hold, fails the same checks
// as a negative time).
func (w *Writer) check(o *Order) error {
	w.line++
	if err := w.chk.add(o, w.line); err != nil {
		return placeDefect("", w.line, err)
	}
	return nil
}

// Close flushes the lines and reports a request for an order never
// written. It does not close the underlying writer.
func (w *Writer) Close() error {
	if w.err != nil {
		return w.err
	}
	if err := w.bw.Flush(); err != nil {
		return err
	}
	if err := w.chk.finish(); err != nil {
		return placeDefect("", 0, err)
	}
	if n := w.chk.read(); w.orders > 0 && n != w.orders {
		return &Error{Msg: fmt.Sprintf("the header announces %d orders, %d were written", w.orders, n)}
	}
	return nil
}
