package timeline

import (
	"cmp"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/presage-dvm/presage/exports/internal/chart"
	"github.com/presage-dvm/presage/schema/stored"
)

// An orders run, simulated (sim/ordersim) or real (orders/measured), is
// stored the same way: every kept order's event (its procedure and
// parent) and the stretches it ran, on which node or worker. Its
// timeline has a thread per node, and a slice per stretch named by the
// order's procedure; an order kept without stretches (stored before
// they were) is one slice from its start to its end. A viewer draws one
// slice at a time on a thread, so a node that ran several orders at once
// (several cores) has a thread per core it used: its stretches are laid
// on the fewest threads, each on the first free when it starts.

// orderSlice is a stretch an order ran, on its thread; times in
// nanoseconds.
type orderSlice struct {
	order, parent int64
	proc          string
	seq           int
	node, thread  int
	begin, end    int64
}

// ordersLayout is an orders run laid out on threads.
type ordersLayout struct {
	slices  []orderSlice // by order then time
	threads []string     // their names
	end     int64        // the last end
}

// layOrders lays the stretches (or, for orders without, the events) on
// the threads of nodes nodes at least, named nodeLabel and the node's
// number (and the core's when it has several).
func layOrders(nodeLabel string, nodes int, events []stored.OrderEvent, stretches []stored.OrderStretch) ordersLayout {
	var l ordersLayout
	byOrder := make(map[int64]*stored.OrderEvent, len(events))
	for i := range events {
		byOrder[events[i].Order] = &events[i]
	}
	stretched := map[int64]bool{}
	for _, st := range stretches {
		stretched[st.Order] = true
		s := orderSlice{order: st.Order, seq: st.Seq, node: st.Node, begin: nanos(st.Start), end: nanos(st.End)}
		if e := byOrder[st.Order]; e != nil {
			s.proc, s.parent = e.Proc, e.Parent
		}
		l.slices = append(l.slices, s)
	}
	for _, e := range events {
		if !stretched[e.Order] {
			l.slices = append(l.slices, orderSlice{order: e.Order, parent: e.Parent, proc: e.Proc, node: e.Node, begin: nanos(e.Start), end: nanos(e.End)})
		}
	}
	slices.SortFunc(l.slices, func(a, b orderSlice) int { return cmp.Or(cmp.Compare(a.order, b.order), cmp.Compare(a.seq, b.seq)) })

	// The cores: by node, in order of start, each slice on the first
	// core free by then.
	for _, s := range l.slices {
		nodes = max(nodes, s.node+1)
		l.end = max(l.end, s.end)
	}
	byStart := make([]int, len(l.slices))
	for i := range byStart {
		byStart[i] = i
	}
	slices.SortFunc(byStart, func(i, j int) int {
		a, b := &l.slices[i], &l.slices[j]
		return cmp.Or(cmp.Compare(a.node, b.node), cmp.Compare(a.begin, b.begin), cmp.Compare(a.end, b.end))
	})
	cores := make([][]int64, nodes) // the end of every core's last slice
	for _, i := range byStart {
		s := &l.slices[i]
		free := cores[s.node]
		c := slices.IndexFunc(free, func(end int64) bool { return end <= s.begin })
		if c < 0 {
			c = len(free)
			cores[s.node] = append(free, 0)
		}
		cores[s.node][c] = s.end
		s.thread = c // the core, for now
	}
	first := make([]int, nodes) // each node's first thread
	for n, used := range cores {
		first[n] = len(l.threads)
		name := nodeLabel + " " + strconv.Itoa(n)
		if len(used) <= 1 {
			l.threads = append(l.threads, name)
			continue
		}
		for c := range used {
			l.threads = append(l.threads, fmt.Sprintf("%s core %d", name, c))
		}
	}
	for i := range l.slices {
		l.slices[i].thread += first[l.slices[i].node]
	}
	return l
}

// nanos converts seconds to whole nanoseconds.
func nanos(s float64) int64 { return int64(math.Round(s * 1e9)) }

// procName is the name of an order's procedure, "order" when it was
// stored without one.
func procName(proc string) string { return cmp.Or(proc, "order") }

// WriteOrdersPerfetto writes an orders run titled title as Chrome
// trace-event JSON, which ui.perfetto.dev opens: a thread per node of
// nodes (more if the stretches name more), named nodeLabel and its
// number ("node 3", "worker 3"; a node that ran several orders at once
// has a thread per core it used, "node 3 core 1"); an "X" slice per
// stretch an order ran, named by its procedure, with the order and its
// parent as args; and a flow from an order's stretch to the next when it
// resumed on another node (it migrated). Events are those of the
// orders kept, stretches theirs by order then time; an order kept
// without stretches is one slice from its start to its end.
func WriteOrdersPerfetto(w io.Writer, title, nodeLabel string, nodes int, events []stored.OrderEvent, stretches []stored.OrderStretch) error {
	l := layOrders(nodeLabel, nodes, events, stretches)
	p, err := newPerfetto(w, title, l.threads)
	if err != nil {
		return err
	}
	for i, s := range l.slices {
		p.begin()
		b := append(p.buf[:0], `{"ph":"X","cat":"order","name":`...)
		b = append(b, quote(procName(s.proc))...)
		b = append(b, `,"pid":1,"tid":`...)
		b = strconv.AppendInt(b, int64(s.thread), 10)
		b = append(b, `,"ts":`...)
		b = micros(b, s.begin)
		b = append(b, `,"dur":`...)
		b = micros(b, s.end-s.begin)
		b = append(b, `,"args":{"order":`...)
		b = strconv.AppendInt(b, s.order, 10)
		b = append(b, `,"parent":`...)
		b = strconv.AppendInt(b, s.parent, 10)
		b = append(b, `}}`...)
		p.buf = b
		if _, err := p.w.Write(b); err != nil {
			return err
		}
		if i+1 < len(l.slices) {
			if next := l.slices[i+1]; next.order == s.order && next.node != s.node {
				if err := p.migration(s, next); err != nil {
					return err
				}
			}
		}
	}
	return p.Close(0)
}

// migration writes the flow of an order from its stretch from on one
// node to its next, to, on another. The flow starts a nanosecond
// before from ends, inside it, for the viewers bind a flow's start to
// the slice around it.
func (p *Perfetto) migration(from, to orderSlice) error {
	return p.flowPair("migration", "resumed elsewhere", flowEnd{from.thread, max(from.begin, from.end-1)}, flowEnd{to.thread, to.begin},
		func(b []byte) []byte {
			b = append(b, `"order":`...)
			return strconv.AppendInt(b, from.order, 10)
		})
}

// maxProcStates bounds the Paraver states of procedures: a state is a
// byte, 0 being idle; past the bound, the procedures with the least time
// share the last state.
const maxProcStates = 255

// WriteOrdersParaver writes an orders run as a Paraver trace, laid out
// as WriteOrdersPerfetto's (a thread per node, or per core it used): the
// .prv has a state record per stretch whose state is the order's
// procedure, the .pcf names the procedures (the one with the most time
// first, coloured from exports/internal/chart's palette in turn), the .row the
// threads. Migrations are not drawn.
func WriteOrdersParaver(prv, pcf, row io.Writer, title, nodeLabel string, nodes int, events []stored.OrderEvent, stretches []stored.OrderStretch) error {
	l := layOrders(nodeLabel, nodes, events, stretches)
	p := NewParaver(prv, pcf, row, ParaverOptions{Title: title, Procs: len(l.threads)})
	time := map[string]int64{}
	for _, s := range l.slices {
		time[procName(s.proc)] += s.end - s.begin
	}
	procs := make([]string, 0, len(time))
	for name := range time {
		procs = append(procs, name)
	}
	slices.SortFunc(procs, func(a, b string) int { return cmp.Or(cmp.Compare(time[b], time[a]), strings.Compare(a, b)) })
	state := make(map[string]uint8, len(procs))
	for i, name := range procs {
		state[name] = uint8(min(i+1, maxProcStates))
	}
	var states []pcfState
	for i, name := range procs[:min(len(procs), maxProcStates)] {
		if i+1 == maxProcStates && len(procs) > maxProcStates {
			name = fmt.Sprintf("%d other procedures", len(procs)-maxProcStates+1)
		}
		states = append(states, pcfState{val: i + 1, name: name, rgb: rgb(chart.Palette[i%len(chart.Palette)])})
	}
	for _, s := range l.slices {
		if err := p.sort.add(record{Time: s.begin, End: s.end, Proc: int32(s.thread), Kind: 1, Val: state[procName(s.proc)]}); err != nil {
			return err
		}
	}
	if err := p.writePrv(l.end); err != nil {
		return err
	}
	if err := writePcf(p.pcf, title, states, nil); err != nil {
		return err
	}
	return writeRow(p.row, l.threads)
}

// rgb parses a colour #rrggbb.
func rgb(hex string) [3]uint8 {
	var c [3]uint8
	for i := range c {
		v, _ := strconv.ParseUint(hex[1+2*i:3+2*i], 16, 8)
		c[i] = uint8(v)
	}
	return c
}
