package timeline

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"strconv"

	"github.com/presage-dvm/presage/sim/events"
)

// Perfetto writes a timeline as Chrome trace-event JSON, which
// ui.perfetto.dev and chrome://tracing open: one thread per processor in
// one process, an "X" (complete) event per span, an "s"/"f" flow pair per
// message, and "M" metadata naming the process and the threads. Times are
// microseconds with three decimals (whole nanoseconds). Events are
// streamed as they come; the viewers sort them.
type Perfetto struct {
	w    *bufio.Writer
	n    int   // events written
	flow int64 // flow ids
	buf  []byte
}

// NewPerfetto starts a trace of procs processors titled title on w.
func NewPerfetto(w io.Writer, title string, procs int) (*Perfetto, error) {
	return newPerfetto(w, title, numbered("processor", procs))
}

// newPerfetto starts a trace titled title on w whose thread i is named
// threads[i].
func newPerfetto(w io.Writer, title string, threads []string) (*Perfetto, error) {
	p := &Perfetto{w: bufio.NewWriterSize(w, 1<<16)}
	p.w.WriteString(`{"displayTimeUnit":"ns","otherData":{"generator":"Presage","title":`)
	p.w.Write(quote(title))
	p.w.WriteString(`},"traceEvents":[`)
	p.meta("process_name", 0, `{"name":`+string(quote(title))+`}`)
	for t, name := range threads {
		p.meta("thread_name", t, `{"name":`+string(quote(name))+`}`)
		p.meta("thread_sort_index", t, `{"sort_index":`+strconv.Itoa(t)+`}`)
	}
	return p, p.w.Flush()
}

// numbered returns "label 0" to "label n−1".
func numbered(label string, n int) []string {
	names := make([]string, n)
	for i := range names {
		names[i] = label + " " + strconv.Itoa(i)
	}
	return names
}

func quote(s string) []byte {
	b, _ := json.Marshal(s)
	return b
}

func (p *Perfetto) meta(name string, tid int, args string) {
	p.begin()
	fmt.Fprintf(p.w, `{"ph":"M","name":%q,"pid":1,"tid":%d,"args":%s}`, name, tid, args)
}

// begin separates events.
func (p *Perfetto) begin() {
	if p.n > 0 {
		p.w.WriteString(",\n")
	} else {
		p.w.WriteByte('\n')
	}
	p.n++
}

// micros appends nanoseconds t as microseconds with three decimals.
func micros(b []byte, t int64) []byte {
	if t < 0 {
		b = append(b, '-')
		t = -t
	}
	b = strconv.AppendInt(b, t/1000, 10)
	f := t % 1000
	return append(b, '.', byte('0'+f/100), byte('0'+f/10%10), byte('0'+f%10))
}

// events.Span writes an "X" event on the processor's thread.
func (p *Perfetto) Span(s events.Span) error {
	p.begin()
	b := append(p.buf[:0], `{"ph":"X","cat":"state","name":"`...)
	b = append(b, s.State.String()...)
	b = append(b, `","pid":1,"tid":`...)
	b = strconv.AppendInt(b, int64(s.Proc), 10)
	b = append(b, `,"ts":`...)
	b = micros(b, s.Begin)
	b = append(b, `,"dur":`...)
	b = micros(b, s.End-s.Begin)
	b = append(b, '}')
	p.buf = b
	_, err := p.w.Write(b)
	return err
}

// Message writes a flow: its start on the sender's thread at the send,
// its end on the receiver's at the arrival, bound to the enclosing span.
func (p *Perfetto) Message(m events.MessageSpan) error {
	return p.flowPair("message", OpName(m.Op), flowEnd{m.From, m.Send}, flowEnd{m.To, m.Arrive}, func(b []byte) []byte {
		b = append(b, `"bytes":`...)
		b = strconv.AppendInt(b, m.Bytes, 10)
		b = append(b, `,"to":`...)
		return strconv.AppendInt(b, int64(m.To), 10)
	})
}

// flowEnd is one end of a flow: a thread and a time in nanoseconds.
type flowEnd struct {
	tid int
	ts  int64
}

// flowPair writes an "s"/"f" pair of a new flow id from one end to the
// other, the start carrying the args args appends (inside the braces).
func (p *Perfetto) flowPair(cat, name string, from, to flowEnd, args func([]byte) []byte) error {
	p.flow++
	for i, at := range []flowEnd{from, to} {
		p.begin()
		b := append(p.buf[:0], `{"ph":"`...)
		if i == 1 {
			b = append(b, `f","bp":"e`...)
		} else {
			b = append(b, 's')
		}
		b = append(b, `","cat":"`...)
		b = append(b, cat...)
		b = append(b, `","name":"`...)
		b = append(b, name...)
		b = append(b, `","id":`...)
		b = strconv.AppendInt(b, p.flow, 10)
		b = append(b, `,"pid":1,"tid":`...)
		b = strconv.AppendInt(b, int64(at.tid), 10)
		b = append(b, `,"ts":`...)
		b = micros(b, at.ts)
		if i == 0 {
			b = append(b, `,"args":{`...)
			b = append(args(b), '}')
		}
		b = append(b, '}')
		p.buf = b
		if _, err := p.w.Write(b); err != nil {
			return err
		}
	}
	return nil
}

// Close ends the JSON document.
func (p *Perfetto) Close(int64) error {
	p.w.WriteString("\n]}\n")
	return p.w.Flush()
}
