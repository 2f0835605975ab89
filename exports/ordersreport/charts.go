package ordersreport

import (
	"cmp"
	"fmt"
	"html/template"
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/presage-dvm/presage/exports/internal/chart"
	"github.com/presage-dvm/presage/schema/stored"
)

// The colours of the parts of a node's time and of the critical path.
// Waiting is grey in both charts: in the timeline it is a node holding
// suspended orders and running none, time no procedure's colour may
// suggest was spent running.
const (
	colBusy     = chart.Green
	colTransfer = chart.Blue
	colWaiting  = chart.Reference
	colIdle     = chart.Idle
	colPath     = chart.Vermillion
	colAnswer   = chart.Purple
)

// procColors colour the procedures in the timeline, the most work first:
// the palette without the critical path's vermillion. When there are
// more procedures than colours, the last colour is the others'.
var procColors = []string{chart.Blue, chart.Green, chart.Purple, chart.Orange, chart.SkyBlue, chart.Yellow, chart.Black}

// nodeRowH is the height of a node's row in the timeline and the loads.
const nodeRowH = 14.0

// smallestMeeting is the deadline's answer among the sweep's clusters:
// the fewest nodes whose run time meets it, 0 when none does or there is
// no deadline. The sweep stores every size its search probed, so this is
// the size the search answered.
func smallestMeeting(runs []stored.OrderRunRow, deadline float64) int {
	answer := 0
	for _, r := range runs {
		if deadline > 0 && r.Makespan <= deadline && (answer == 0 || r.Nodes < answer) {
			answer = r.Nodes
		}
	}
	return answer
}

// The timeline's tracks: the orders' bars, the critical path's frame
// around them, and the thin bar of a waiting node.
const (
	trackOrders = iota
	trackPath
	trackWaiting
)

// timeline is the Gantt chart: a row per node, a bar per stretch an order
// ran coloured by its procedure (per order, from its start to its end,
// when only the orders' events are stored), the time a node held only
// suspended orders in grey, the critical path framed over them.
func timeline(s *stored.OrderSimulation) template.HTML {
	d := s.Detail
	rows := make([]chart.Row, min(d.Nodes, maxTimelineNodes))
	unit := unitOf(s)
	for n := range rows {
		rows[n].Label = fmt.Sprintf("%s %d", unit, n)
	}
	pal := newPalette(rankProcs(s))
	waiting := false
	if len(s.Stretches) > 0 {
		waiting = stretchBars(rows, s, pal)
	} else {
		for _, e := range s.Events {
			if e.Node < len(rows) {
				rows[e.Node].Bars = append(rows[e.Node].Bars, chart.Bar{From: e.Start, To: e.End, Color: pal.of(e.Proc), Class: "order",
					Tip: fmt.Sprintf("%s: %s–%s s, waited %s s", orderName(e.Proc, e.Order), label(e.Start), label(e.End), label(e.Wait))})
			}
		}
	}
	for _, p := range s.Path {
		if p.Node < len(rows) {
			rows[p.Node].Bars = append(rows[p.Node].Bars, chart.Bar{From: p.Start, To: p.End, Track: trackPath, Color: colPath, Class: "path", Outline: true,
				Tip: fmt.Sprintf("critical path: %s %s, %s–%s s", orderName(p.Proc, p.Order), p.Reason, label(p.Start), label(p.End))})
		}
	}
	var legend []chart.LegendGroup
	if len(s.Events) > 0 {
		legend = append(legend, chart.LegendGroup{Title: "running", Items: pal.items})
	}
	var marks []chart.LegendItem
	if waiting {
		marks = append(marks, chart.LegendItem{Name: "waiting: suspended orders only", Color: colWaiting, Swatch: chart.SwatchBox})
	}
	if len(s.Path) > 0 {
		marks = append(marks, chart.LegendItem{Name: "the critical path", Color: colPath, Swatch: chart.SwatchOutline})
	}
	legend = append(legend, chart.LegendGroup{Items: marks})
	c := chart.Rows{
		Frame: chart.Frame{Title: "timeline of the nodes"},
		RowH:  nodeRowH, Tracks: []chart.Track{trackOrders: {Y: 2, H: 10}, trackPath: {Y: 1, H: 12}, trackWaiting: {Y: 5, H: 4}},
		Lanes: true, Edges: true, MinW: 0.5,
		X:    chart.Axis{Scale: chart.Scale{Hi: math.Max(d.Makespan, 1e-300)}, Label: "time, s"},
		Rows: rows, Legend: legend,
	}
	return template.HTML(c.SVG())
}

// stretchBars adds to rows a bar per stretch an order ran and, on every
// node, one per time the node held suspended orders and ran none (an
// order is suspended on the node of its last stretch); it reports
// whether there was such a time. The stretches are by order then time.
func stretchBars(rows []chart.Row, s *stored.OrderSimulation, pal palette) bool {
	procs := make(map[int64]string, len(s.Events))
	for _, e := range s.Events {
		procs[e.Order] = e.Proc
	}
	parts := map[int64]int{} // the stretches of each order
	for _, st := range s.Stretches {
		parts[st.Order]++
	}
	// The changes of the numbers of orders running and suspended on
	// every node.
	type change struct {
		t         float64
		run, susp int
	}
	changes := make([][]change, len(rows))
	for i, st := range s.Stretches {
		if st.Node >= len(rows) {
			continue
		}
		proc := procs[st.Order]
		tip := fmt.Sprintf("%s: %s–%s s", orderName(proc, st.Order), label(st.Start), label(st.End))
		if n := parts[st.Order]; n > 1 {
			tip += fmt.Sprintf(" (stretch %d of %d)", st.Seq+1, n)
		}
		rows[st.Node].Bars = append(rows[st.Node].Bars, chart.Bar{From: st.Start, To: st.End, Color: pal.of(proc), Class: "order", Tip: tip})
		changes[st.Node] = append(changes[st.Node], change{st.Start, 1, 0}, change{st.End, -1, 0})
		if i+1 < len(s.Stretches) && s.Stretches[i+1].Order == st.Order {
			changes[st.Node] = append(changes[st.Node], change{st.End, 0, 1}, change{s.Stretches[i+1].Start, 0, -1})
		}
	}
	waited := false
	for n, cs := range changes {
		slices.SortFunc(cs, func(a, b change) int { return cmp.Compare(a.t, b.t) })
		run, susp, from := 0, 0, math.NaN()
		for i, c := range cs {
			run, susp = run+c.run, susp+c.susp
			if i+1 < len(cs) && cs[i+1].t == c.t {
				continue // every change of the moment first
			}
			switch waiting := run == 0 && susp > 0; {
			case waiting && math.IsNaN(from):
				from = c.t
			case !waiting && !math.IsNaN(from):
				rows[n].Bars = append(rows[n].Bars, chart.Bar{From: from, To: c.t, Track: trackWaiting, Color: colWaiting, Class: "waiting",
					Tip: fmt.Sprintf("%s %d waiting: suspended orders only, %s–%s s", unitOf(s), n, label(from), label(c.t))})
				from, waited = math.NaN(), true
			}
		}
	}
	return waited
}

// palette is the procedures' colours in the timeline and their legend.
type palette struct {
	colors map[string]string
	other  string // the colour of the procedures not named
	items  []chart.LegendItem
}

// newPalette gives each procedure of ranked, the most work first, its
// colour: its own while colours last, the last one shared by the rest.
func newPalette(ranked []string) palette {
	p := palette{colors: map[string]string{}, other: procColors[len(procColors)-1]}
	named := len(ranked)
	if named > len(procColors) {
		named = len(procColors) - 1
	}
	for i, proc := range ranked[:named] {
		p.colors[proc] = procColors[i]
		name := proc
		if proc == "" { // stored before procedures were
			name = "an order"
		}
		p.items = append(p.items, chart.LegendItem{Name: name, Color: procColors[i], Swatch: chart.SwatchBox})
	}
	if named < len(ranked) {
		p.items = append(p.items, chart.LegendItem{Name: fmt.Sprintf("%d other procedures", len(ranked)-named), Color: p.other, Swatch: chart.SwatchBox})
	}
	return p
}

func (p palette) of(proc string) string {
	if c, ok := p.colors[proc]; ok {
		return c
	}
	return p.other
}

// rankProcs lists the procedures, the most work first (then by name):
// the run's sums when stored, else the drawn orders' time.
func rankProcs(s *stored.OrderSimulation) []string {
	work := map[string]float64{}
	for _, p := range s.Procs {
		work[p.Proc] += p.Work
	}
	if len(work) == 0 {
		for _, e := range s.Events {
			work[e.Proc] += e.End - e.Start - e.Wait
		}
	}
	ranked := slices.Collect(maps.Keys(work))
	slices.SortFunc(ranked, func(a, b string) int { return cmp.Or(cmp.Compare(work[b], work[a]), strings.Compare(a, b)) })
	return ranked
}

// orderName names an order with its procedure, when known.
func orderName(proc string, order int64) string {
	if proc == "" {
		return fmt.Sprintf("order %d", order)
	}
	return fmt.Sprintf("%s, order %d", proc, order)
}

// loads is a stacked bar per node: busy, transfer, waiting, idle.
func loads(s *stored.OrderSimulation) template.HTML {
	d := s.Detail
	total := math.Max(d.Makespan*float64(max(d.Cores, 1)), 1e-300)
	parts := []struct{ name, legend, color string }{
		{"busy", "busy", colBusy}, {"transfer", "transfer (arguments arriving)", colTransfer},
		{"waiting", "waiting for results", colWaiting}, {"idle", "idle (nothing to run)", colIdle},
	}
	var rows []chart.Row
	unit := unitOf(s)
	for _, n := range s.Nodes[:min(len(s.Nodes), maxTimelineNodes)] {
		var bars []chart.Bar
		for i, v := range []float64{n.Busy, n.Transfer, n.Waiting, n.Idle} {
			bars = append(bars, chart.Bar{To: v, Color: parts[i].color,
				Tip: fmt.Sprintf("%s %d %s: %s s (%.1f%%)", unit, n.Node, parts[i].name, label(v), 100*v/total)})
		}
		rows = append(rows, chart.Row{Label: fmt.Sprintf("%s %d", unit, n.Node), Bars: chart.Stack(bars)})
	}
	var legend []chart.LegendItem
	for _, p := range parts {
		legend = append(legend, chart.LegendItem{Name: p.legend, Color: p.color, Swatch: chart.SwatchBox})
	}
	c := chart.Rows{
		Frame: chart.Frame{Title: "load of every node"},
		RowH:  nodeRowH, Tracks: []chart.Track{{Y: 2, H: 10}},
		X:    chart.Axis{Scale: chart.Scale{Hi: total}, Label: "core time (run time × cores per node), s"},
		Rows: rows, Legend: []chart.LegendGroup{{Items: legend}},
	}
	return template.HTML(c.SVG())
}

// speedupChart plots the sweep's speedup against the cluster's cores
// (log-log) within the range the work and span allow, beside the ideal
// line; the current run and the clusters meeting the deadline are marked.
func speedupChart(runs []stored.OrderRunRow, current int, deadline float64) template.HTML {
	var cores []int
	speedups := []float64{1}
	line := chart.Line{Name: "simulated speedup", Color: chart.Blue, Marker: chart.Circle, BandTip: "work/span range"}
	answer := smallestMeeting(runs, deadline)
	for _, r := range runs {
		n := float64(r.Nodes * r.Cores)
		cores = append(cores, r.Nodes*r.Cores)
		speedups = append(speedups, r.Speedup, r.SpeedupHi)
		line.Pts = append(line.Pts, chart.Point{X: n, Y: r.Speedup})
		line.Band = append(line.Band, chart.Band{X: n, Lo: r.SpeedupLo, Hi: r.SpeedupHi})
		m := chart.Point{X: n, Y: r.Speedup,
			Tip: fmt.Sprintf("%d nodes: run time %s s, speedup %.3g (range %.3g–%.3g)", r.Nodes, label(r.Makespan), r.Speedup, r.SpeedupLo, r.SpeedupHi)}
		switch {
		case r.Nodes == answer:
			m.Class, m.Color = "answer", colAnswer
		case r.Nodes == current:
			m.Class, m.Color = "current", colPath
		case deadline > 0 && r.Makespan <= deadline:
			m.Class, m.Color = "meets", colBusy
		}
		line.Marks = append(line.Marks, m)
	}
	x, ticks := chart.CountScale(cores)
	y := chart.LogScale(2, speedups...)
	for i := range line.Band { // a bound a little below 1 on one node is not worth an octave
		line.Band[i].Lo = y.Clamp(line.Band[i].Lo)
	}
	c := chart.LineChart{
		Frame: chart.Frame{Title: "speedup against cluster size"},
		Width: chart.Wide,
		X:     chart.Axis{Scale: x, Ticks: ticks, Label: "cores (nodes × cores per node, log2 scale)"},
		Y:     chart.Axis{Scale: y, Label: "speedup (log2)"},
		Lines: []chart.Line{line}, BandName: "range the work and span allow",
	}
	if r := chart.IdealSpeedup(1, x.Lo, x.Hi, y.Hi); r != nil { // speedup = cores
		c.Refs = []chart.Ref{*r}
	}
	if deadline > 0 {
		c.Extra = append(c.Extra, chart.LegendItem{Name: fmt.Sprintf("meets the deadline (%s s)", label(deadline)), Color: colBusy, Swatch: chart.SwatchMark})
	}
	if answer > 0 {
		c.Extra = append(c.Extra, chart.LegendItem{Name: fmt.Sprintf("the answer: the smallest cluster that meets it (%d nodes%s)", answer, thisRun(answer == current)), Color: colAnswer, Swatch: chart.SwatchMark})
	}
	if current != answer { // else its point is the answer's
		c.Extra = append(c.Extra, chart.LegendItem{Name: "this run", Color: colPath, Swatch: chart.SwatchMark})
	}
	return template.HTML(c.SVG())
}

// label formats a time with 3 significant digits.
func label(v float64) string { return fmt.Sprintf("%.3g", v) }

// thisRun notes, in the answer's legend, that the answer is this run.
func thisRun(is bool) string {
	if is {
		return ", this run"
	}
	return ""
}
