package tracegen

import (
	"io"
	"strconv"
)

// ticks is a time in units of 10 ns: the last digit of TIME= with
// TimePrecision=8. Keeping times integral makes their text exact and cheap.
type ticks int64

const (
	ticksPerSecond = 100_000_000
	// flushAt is the buffered size at which the emitter writes out.
	flushAt = 256 << 10
	// nameWidth and lineWidth are the columns the run-time system pads the
	// event name and the LINE= value to.
	nameWidth = 27
	lineWidth = 6
)

const blanks = "                                "

// emitter appends trace text to a buffer and writes it out in large
// blocks; after the first write error it keeps only that error.
type emitter struct {
	w    io.Writer
	b    []byte
	err  error
	file string // FILE= of every event line
	clk  clock

	calls     int    // call/ret pairs in the body
	user, sys ticks  // sums of call and ret times, for the tail
	entered   []bool // interval nfrag+1 entered before
	printed   bool   // a line was printed before
}

func newEmitter(w io.Writer, file string, seed int64) *emitter {
	return &emitter{w: w, b: make([]byte, 0, flushAt+4096), file: file, clk: newClock(seed)}
}

// flush writes the buffer out.
func (e *emitter) flush() error {
	if e.err == nil && len(e.b) > 0 {
		_, e.err = e.w.Write(e.b)
	}
	e.b = e.b[:0]
	return e.err
}

// call writes the call line of fn; its parameter lines follow. Like the
// merged traces, every event line of the body is preceded by a blank line.
func (e *emitter) call(fn string, line int, t ticks) {
	if len(e.b) >= flushAt {
		e.flush()
	}
	e.user += t
	e.b = append(e.b, '\n')
	e.b = appendEvent(e.b, "call_", fn, t, line, e.file)
}

// ret writes the return line of fn; its output parameter lines follow.
func (e *emitter) ret(fn string, line int, t ticks) {
	e.sys += t
	e.calls++
	e.b = append(e.b, '\n')
	e.b = appendEvent(e.b, "ret_", fn, t, line, e.file)
}

// appendEvent appends "<prefix><fn>  TIME=t LINE=line  FILE=file\n".
func appendEvent(b []byte, prefix, fn string, t ticks, line int, file string) []byte {
	n := len(prefix) + len(fn)
	b = append(b, prefix...)
	b = append(b, fn...)
	if n < nameWidth-1 {
		b = append(b, blanks[:nameWidth-1-n]...)
	}
	b = append(b, " TIME="...)
	b = appendTicks(b, t)
	b = append(b, " LINE="...)
	s := len(b)
	b = strconv.AppendInt(b, int64(line), 10)
	if n := len(b) - s; n < lineWidth {
		b = append(b, blanks[:lineWidth-n]...)
	}
	b = append(b, " FILE="...)
	b = append(b, file...)
	return append(b, '\n')
}

// appendTicks appends t as seconds with 8 decimals, as %.8f would.
func appendTicks(b []byte, t ticks) []byte {
	if t < 0 {
		b = append(b, '-')
		t = -t
	}
	b = strconv.AppendInt(b, int64(t/ticksPerSecond), 10)
	b = append(b, '.')
	f := int64(t % ticksPerSecond)
	var d [8]byte
	for i := 7; i >= 0; i-- {
		d[i] = byte('0' + f%10)
		f /= 10
	}
	return append(b, d[:]...)
}

// The parameter-line builders: hex, dec and text add `Name=value; `
// tokens, end finishes the line.

func (e *emitter) hex(name string, v uint64) {
	e.b = append(e.b, name...)
	e.b = append(e.b, '=')
	e.b = strconv.AppendUint(e.b, v, 16)
	e.b = append(e.b, "; "...)
}

func (e *emitter) dec(name string, v int) {
	e.b = append(e.b, name...)
	e.b = append(e.b, '=')
	e.b = strconv.AppendInt(e.b, int64(v), 10)
	e.b = append(e.b, "; "...)
}

func (e *emitter) text(s string) { e.b = append(e.b, s...) }

func (e *emitter) num(v int) { e.b = strconv.AppendInt(e.b, int64(v), 10) }

func (e *emitter) hexv(v uint64) { e.b = strconv.AppendUint(e.b, v, 16) }

// pattern writes the PatternRef token with its kind suffix, which ends the
// line.
func (e *emitter) pattern(ref uint64, suffix string) {
	e.text("PatternRef=")
	e.hexv(ref)
	e.text(suffix)
}

// end finishes a parameter line: the run-time system writes no blank after
// the last ';'.
func (e *emitter) end() {
	if n := len(e.b); n > 0 && e.b[n-1] == ' ' {
		e.b = e.b[:n-1]
	}
	e.b = append(e.b, '\n')
}

// line writes a whole parameter line verbatim.
func (e *emitter) line(s string) {
	e.b = append(e.b, s...)
	e.b = append(e.b, '\n')
}

// array writes `Name[0]=v0; Name[1]=v1;  ` the way the run-time system
// prints index arrays: every name but the first right-aligned in a field of
// width pad (the leading blanks of the first were stripped by the merge),
// one extra blank at the end.
func (e *emitter) array(name string, pad int, vs ...int) {
	for i, v := range vs {
		e.element(name, pad, i)
		e.b = strconv.AppendInt(e.b, int64(v), 10)
		e.b = append(e.b, "; "...)
	}
	e.b = append(e.b, " \n"...)
}

// hexArray is array for addresses.
func (e *emitter) hexArray(name string, pad int, vs ...uint64) {
	for i, v := range vs {
		e.element(name, pad, i)
		e.b = strconv.AppendUint(e.b, v, 16)
		e.b = append(e.b, "; "...)
	}
	e.b = append(e.b, " \n"...)
}

// element writes the `Name[i]=` before the i-th value of an array.
func (e *emitter) element(name string, pad, i int) {
	if i > 0 && len(name) < pad {
		e.b = append(e.b, blanks[:pad-len(name)]...)
	}
	e.b = append(e.b, name...)
	e.b = append(e.b, '[')
	e.b = strconv.AppendInt(e.b, int64(i), 10)
	e.b = append(e.b, "]="...)
}
