package timeline

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"time"

	"github.com/presage-dvm/presage/sim/events"
)

// Paraver writes a timeline as a Paraver trace, the format of BSC's
// Paraver/wxparaver that Dimemas writes for its simulated runs: the .prv
// (header, then state records "1:..." and communication records "3:..."
// in time order), the .pcf (state names and colours) and the .row (the
// names of the processors). Every processor is one task of one thread of
// one application, on one CPU of one node; times are nanoseconds.
type Paraver struct {
	prv, pcf, row io.Writer
	opt           ParaverOptions
	sort          sorter
}

// ParaverOptions describe the trace.
type ParaverOptions struct {
	Title string    // written as a comment of the .pcf
	Procs int       // processors of the grid
	Date  time.Time // the header's date (the run's); zero writes 01/01/70
	// TempDir holds the sorted runs of long traces ("" = the system's).
	TempDir string
	// RunRecords bounds the records held in memory (0 = 1<<20, 34 MB).
	RunRecords int
}

// NewParaver returns a sink writing the three files at Close.
func NewParaver(prv, pcf, row io.Writer, opt ParaverOptions) *Paraver {
	n := opt.RunRecords
	if n <= 0 {
		n = 1 << 20
	}
	return &Paraver{prv: prv, pcf: pcf, row: row, opt: opt, sort: sorter{runLen: n, dir: opt.TempDir}}
}

// events.Span buffers a state record.
func (p *Paraver) Span(s events.Span) error {
	return p.sort.add(record{Time: s.Begin, End: s.End, Proc: int32(s.Proc), Kind: 1, Val: uint8(s.State)})
}

// Message buffers a communication record.
func (p *Paraver) Message(m events.MessageSpan) error {
	return p.sort.add(record{Time: m.Send, End: m.Arrive, Size: m.Bytes, Proc: int32(m.From), Peer: int32(m.To), Kind: 3, Val: uint8(m.Op)})
}

// Close writes the .prv, .pcf and .row; end is the trace's duration.
func (p *Paraver) Close(end int64) error {
	if err := p.writePrv(end); err != nil {
		return err
	}
	states := make([]pcfState, 0, events.NumStates-1)
	for _, s := range States() {
		states = append(states, pcfState{val: int(s), name: s.String(), rgb: colors[s]})
	}
	if err := writePcf(p.pcf, p.opt.Title, states, opNames[:]); err != nil {
		return err
	}
	return writeRow(p.row, numbered("processor", p.opt.Procs))
}

// header is the first line of the .prv: date, duration, resources
// (1 node of P CPUs) and the application (P tasks of one thread each,
// all on node 1).
func (p *Paraver) header(end int64) string {
	d := p.opt.Date
	if d.IsZero() {
		d = time.Unix(0, 0).UTC()
	}
	b := []byte(fmt.Sprintf("#Paraver (%s):%d_ns:1(%d):1:%d(", d.Format("02/01/06 at 15:04"), end, p.opt.Procs, p.opt.Procs))
	for t := range p.opt.Procs {
		if t > 0 {
			b = append(b, ',')
		}
		b = append(b, "1:1"...)
	}
	return string(append(b, ')', '\n'))
}

func (p *Paraver) writePrv(end int64) error {
	w := bufio.NewWriterSize(p.prv, 1<<16)
	w.WriteString(p.header(end))
	var b []byte
	err := p.sort.each(func(r record) error {
		b = appendRecord(b[:0], r)
		_, err := w.Write(b)
		return err
	})
	if err != nil {
		return err
	}
	return w.Flush()
}

// appendRecord formats a record: a state
// 1:cpu:appl:task:thread:begin:end:state, or a communication
// 3:cpu:appl:task:thread:lsend:psend:cpu:appl:task:thread:lrecv:precv:size:tag
// whose tag is the operation class + 1.
func appendRecord(b []byte, r record) []byte {
	obj := func(b []byte, p int32) []byte {
		b = strconv.AppendInt(b, int64(p)+1, 10)
		b = append(b, ":1:"...)
		b = strconv.AppendInt(b, int64(p)+1, 10)
		return append(b, ":1:"...)
	}
	b = append(b, r.Kind+'0', ':')
	b = obj(b, r.Proc)
	b = strconv.AppendInt(b, r.Time, 10)
	b = append(b, ':')
	if r.Kind == 1 {
		b = strconv.AppendInt(b, r.End, 10)
		b = append(b, ':')
		b = strconv.AppendInt(b, int64(r.Val), 10)
		return append(b, '\n')
	}
	b = strconv.AppendInt(b, r.Time, 10)
	b = append(b, ':')
	b = obj(b, r.Peer)
	b = strconv.AppendInt(b, r.End, 10)
	b = append(b, ':')
	b = strconv.AppendInt(b, r.End, 10)
	b = append(b, ':')
	b = strconv.AppendInt(b, r.Size, 10)
	b = append(b, ':')
	b = strconv.AppendInt(b, int64(r.Val)+1, 10)
	return append(b, '\n')
}

// pcfState is a state the .pcf names and colours (0 is Idle, always).
type pcfState struct {
	val  int
	name string
	rgb  [3]uint8
}

// writePcf writes the configuration: default view options, the states
// with their colours, and the message tags (the operations that sent
// them), if any.
func writePcf(w io.Writer, title string, states []pcfState, tags []string) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "# Presage timeline: %s\nDEFAULT_OPTIONS\n\nLEVEL               THREAD\nUNITS               NANOSEC\nLOOK_BACK           100\nSPEED               1\nFLAG_ICONS          ENABLED\nNUM_OF_STATE_COLORS %d\nYMAX_SCALE          37\n\n\nDEFAULT_SEMANTIC\n\nTHREAD_FUNC          State As Is\n\n\nSTATES\n0    Idle\n", title, len(states)+1)
	for _, s := range states {
		fmt.Fprintf(bw, "%-4d %s\n", s.val, s.name)
	}
	bw.WriteString("\n\nSTATES_COLOR\n0    {255,255,255}\n")
	for _, s := range states {
		fmt.Fprintf(bw, "%-4d {%d,%d,%d}\n", s.val, s.rgb[0], s.rgb[1], s.rgb[2])
	}
	if len(tags) > 0 {
		bw.WriteString("\n\n# Communication tags: the operation that sent the message.\n")
	}
	for i, name := range tags {
		fmt.Fprintf(bw, "# tag %d: %s\n", i+1, name)
	}
	return bw.Flush()
}

// writeRow names the CPUs, the node and the threads: thread i (and its
// task) is threads[i].
func writeRow(w io.Writer, threads []string) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "LEVEL CPU SIZE %d\n", len(threads))
	for p := range threads {
		fmt.Fprintf(bw, "CPU %d\n", p)
	}
	fmt.Fprintf(bw, "\nLEVEL NODE SIZE 1\nnode\n\nLEVEL TASK SIZE %d\n", len(threads))
	for _, name := range threads {
		fmt.Fprintf(bw, "%s\n", name)
	}
	fmt.Fprintf(bw, "\nLEVEL THREAD SIZE %d\n", len(threads))
	for _, name := range threads {
		fmt.Fprintf(bw, "%s\n", name)
	}
	return bw.Flush()
}
