package ordersreport

import (
	"bytes"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/presage-dvm/presage/exports/internal/chart"
	"github.com/presage-dvm/presage/exports/internal/htmltest"
	"github.com/presage-dvm/presage/orders/calibration"
	"github.com/presage-dvm/presage/schema/stored"
	"github.com/presage-dvm/presage/sim/result"
)

// sample is a simulation of 3 orders on 2 nodes, in a sweep of 1, 2 and 4.
func sample() *Input {
	run := &result.Run{ID: 7, Program: "sort", Intervals: []*result.Interval{{ID: 1, Type: result.Main}}}
	sim := &stored.OrderSimulation{
		Run:    run,
		Detail: stored.OrderRun{Scheduler: "fifo", Nodes: 2, Cores: 1, Power: 1, Makespan: 3, Work: 5, Span: 3, Parallelism: 5.0 / 3, Speedup: 5.0 / 3, SpeedupLo: 1.1, SpeedupHi: 5.0 / 3},
		Nodes:  []stored.OrderNode{{Node: 0, Orders: 2, Busy: 3}, {Node: 1, Orders: 1, Busy: 2, Idle: 1}},
		Events: []stored.OrderEvent{{Order: 1, Node: 0, End: 1}, {Order: 2, Node: 0, Start: 1, End: 3}, {Order: 3, Node: 1, Start: 1, End: 3}},
		Path:   []stored.PathStep{{Order: 1, Node: 0, End: 1, Reason: "run"}, {Order: 2, Node: 0, Start: 1, End: 3, Reason: "run"}},
	}
	sweep := []stored.OrderRunRow{
		{RunID: 6, OrderRun: stored.OrderRun{Nodes: 1, Cores: 1, Makespan: 5, Speedup: 1, SpeedupLo: 1, SpeedupHi: 1}},
		{RunID: 7, OrderRun: sim.Detail},
		{RunID: 8, OrderRun: stored.OrderRun{Nodes: 4, Cores: 1, Makespan: 3, Speedup: 5.0 / 3, SpeedupLo: 1.2, SpeedupHi: 5.0 / 3}},
	}
	return &Input{Sim: sim, Sweep: sweep, Deadline: 4}
}

// TestReportContent: the page is well-formed, shows the run time, one
// timeline bar per order, the critical path, a load bar per node part and
// one sweep point per cluster, the deadline's clusters marked.
func TestReportContent(t *testing.T) {
	var b bytes.Buffer
	if err := Write(&b, sample()); err != nil {
		t.Fatal(err)
	}
	page := htmltest.Parse(t, b.Bytes())
	text := page.Text()
	for _, want := range []string{"sort on 2 nodes", "run time (makespan)", "1.67", "Critical path"} {
		if !strings.Contains(text, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	if n := len(page.All(htmltest.WithClass("order"))); n != 3 {
		t.Errorf("%d order bars, want 3", n)
	}
	if n := len(page.All(htmltest.WithClass("path"))); n != 2 {
		t.Errorf("%d critical path marks, want 2", n)
	}
	if n := len(page.All(htmltest.WithClass("mark"))); n != 3 {
		t.Errorf("%d sweep points, want 3", n)
	}
	if n := len(page.All(htmltest.WithClass("meets"))); n != 1 {
		t.Errorf("%d points marked as meeting the 4 s deadline, want 1 (4 nodes; 2 nodes is the answer)", n)
	}
	if n := len(page.All(htmltest.WithClass("answer"))); n != 1 || !strings.Contains(text, "the smallest cluster that meets it (2 nodes, this run)") {
		t.Errorf("%d points marked as the deadline's answer, want 1 (2 nodes), and its legend", n)
	}
}

// TestReportWithoutEvents: a simulation stored without its orders'
// schedules still draws the critical path, and says why the bars are
// missing.
func TestReportWithoutEvents(t *testing.T) {
	in := sample()
	in.Sim.Events, in.Sweep = nil, nil
	var b bytes.Buffer
	if err := Write(&b, in); err != nil {
		t.Fatal(err)
	}
	page := htmltest.Parse(t, b.Bytes())
	if n := len(page.All(htmltest.WithClass("order"))); n != 0 {
		t.Errorf("%d order bars without events", n)
	}
	if !strings.Contains(page.Text(), "more orders than --max-events") {
		t.Error("the page does not say why the orders are not drawn")
	}
	if strings.Contains(page.Text(), "Speedup against cluster size") {
		t.Error("a speedup chart without a sweep")
	}
	// A run of a sweep: the reason is the sweep, not --max-events.
	in.Sim.Run.SweepID = 3
	b.Reset()
	if err := Write(&b, in); err != nil {
		t.Fatal(err)
	}
	if text := htmltest.Parse(t, b.Bytes()).Text(); !strings.Contains(text, "not stored for the runs of a sweep") || strings.Contains(text, "--max-events") {
		t.Errorf("a sweep's run without schedules does not say it is the sweep's: %q", text)
	}
}

// byProcedure is sample with procedures, stretches and sums. Main
// runs 0–1 on node 0 and suspends until 2.5, then ends at 3; leaf order
// 2 runs 1–2 on node 0, leaf order 3 1–2.5 on node 1: from 2 to 2.5 node
// 0 holds main suspended and runs nothing.
func byProcedure() *Input {
	in := sample()
	s := in.Sim
	s.Events = []stored.OrderEvent{
		{Order: 1, Proc: "main", Node: 0, End: 3, Wait: 1.5},
		{Order: 2, Proc: "leaf", Parent: 1, Node: 0, Start: 1, End: 2},
		{Order: 3, Proc: "leaf", Parent: 1, Child: 1, Node: 1, Start: 1, End: 2.5},
	}
	s.Stretches = []stored.OrderStretch{
		{Order: 1, Seq: 0, Node: 0, Start: 0, End: 1}, {Order: 1, Seq: 1, Node: 0, Start: 2.5, End: 3},
		{Order: 2, Node: 0, Start: 1, End: 2},
		{Order: 3, Node: 1, Start: 1, End: 2.5},
	}
	s.Procs = []stored.OrderProc{
		{Proc: "leaf", Orders: 2, Work: 2.5, PathTime: 1, MeanDuration: 1.25, SDDuration: 0.25},
		{Proc: "main", Orders: 1, Work: 1.5, PathTime: 1.5, MeanDuration: 3},
	}
	s.Path = []stored.PathStep{
		{Step: 0, Order: 1, Proc: "main", Node: 0, End: 1, Reason: "run"},
		{Step: 1, Order: 2, Proc: "leaf", Node: 0, Start: 1, End: 2, Reason: "run"},
	}
	return in
}

// TestReportByProcedure: the procedures' table sums the orders, the most
// work first; the critical path names its procedures; the timeline draws
// a bar per stretch, coloured by procedure (the most work first) and
// named with its order, a grey bar where a node only held a suspended
// order, and a legend of the procedures.
func TestReportByProcedure(t *testing.T) {
	var b bytes.Buffer
	if err := Write(&b, byProcedure()); err != nil {
		t.Fatal(err)
	}
	page := htmltest.Parse(t, b.Bytes())
	procs := page.First(t, "procedures' table", htmltest.WithClass("procs")).Rows()
	want := [][]string{
		{"procedure", "orders", "work (s)", "share of the work", "share of the critical path", "duration (s), mean ± sd"},
		{"leaf", "2", "2.5", "62.5%", "33.3%", "1.25 ± 0.25"},
		{"main", "1", "1.5", "37.5%", "50.0%", "3 ± 0"},
	}
	if !reflect.DeepEqual(procs, want) {
		t.Errorf("procedures' table %q\nwant %q", procs, want)
	}
	var pathProcs []string
	for _, tr := range page.All(htmltest.Named("table"))[1].Rows()[1:] {
		pathProcs = append(pathProcs, tr[2])
	}
	if !slices.Equal(pathProcs, []string{"main", "leaf"}) {
		t.Errorf("critical path's procedures %q, want main, leaf", pathProcs)
	}
	bars := map[string]string{} // tooltip → colour
	for _, r := range page.All(htmltest.WithClass("order")) {
		bars[r.Text()] = r.Attr["fill"]
	}
	wantBars := map[string]string{
		"main, order 1: 0–1 s (stretch 1 of 2)":   procColors[1],
		"main, order 1: 2.5–3 s (stretch 2 of 2)": procColors[1],
		"leaf, order 2: 1–2 s":                    procColors[0],
		"leaf, order 3: 1–2.5 s":                  procColors[0],
	}
	if !maps.Equal(bars, wantBars) {
		t.Errorf("order bars %v\nwant %v", bars, wantBars)
	}
	waits := page.All(htmltest.WithClass("waiting"))
	if len(waits) != 1 || waits[0].Text() != "node 0 waiting: suspended orders only, 2–2.5 s" {
		t.Errorf("%d waiting bars, want one on node 0, 2–2.5 s", len(waits))
	}
	var legend string
	for _, l := range page.All(htmltest.WithClass("legend")) {
		legend += l.Text()
	}
	for _, want := range []string{"leaf", "main", "waiting: suspended orders only"} {
		if !strings.Contains(legend, want) {
			t.Errorf("legend %q lacks %q", legend, want)
		}
	}
}

// TestWaitingIsNotRunning: a node's running bars are exactly the
// stretches it ran, none over an order's time suspended, and its grey
// bars exactly the times it held suspended orders and ran none, also
// with two orders suspended at once and an order resuming on another
// node.
func TestWaitingIsNotRunning(t *testing.T) {
	type span struct{ from, to float64 }
	for _, tc := range []struct {
		name      string
		stretches []stored.OrderStretch
		running   [][]span // by node
		waiting   [][]span
	}{
		{"one suspended", byProcedure().Sim.Stretches,
			[][]span{{{0, 1}, {2.5, 3}, {1, 2}}, {{1, 2.5}}}, [][]span{{{2, 2.5}}, nil}},
		{"two overlapping", []stored.OrderStretch{
			{Order: 1, Seq: 0, Node: 0, Start: 0, End: 1}, {Order: 1, Seq: 1, Node: 0, Start: 3, End: 4},
			{Order: 2, Seq: 0, Node: 0, Start: 1, End: 2}, {Order: 2, Seq: 1, Node: 0, Start: 2.5, End: 2.75},
		}, [][]span{{{0, 1}, {3, 4}, {1, 2}, {2.5, 2.75}}, nil}, [][]span{{{2, 2.5}, {2.75, 3}}, nil}},
		{"migrated", []stored.OrderStretch{
			{Order: 1, Seq: 0, Node: 0, Start: 0, End: 1}, {Order: 1, Seq: 1, Node: 1, Start: 2, End: 3},
		}, [][]span{{{0, 1}}, {{2, 3}}}, [][]span{{{1, 2}}, nil}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := &stored.OrderSimulation{Detail: stored.OrderRun{Nodes: 2, Makespan: 4}, Stretches: tc.stretches}
			rows := make([]chart.Row, 2)
			stretchBars(rows, s, newPalette(nil))
			for n, r := range rows {
				var running, waiting []span
				for _, b := range r.Bars {
					if b.Class == "waiting" {
						waiting = append(waiting, span{b.From, b.To})
					} else {
						running = append(running, span{b.From, b.To})
					}
				}
				if !slices.Equal(running, tc.running[n]) || !slices.Equal(waiting, tc.waiting[n]) {
					t.Errorf("node %d runs %v and waits %v; want %v and %v", n, running, waiting, tc.running[n], tc.waiting[n])
				}
			}
		})
	}
}

// TestPalette: every procedure has its own colour while they last; past
// them the last colour is the others', named by their number.
func TestPalette(t *testing.T) {
	for _, tc := range []struct {
		procs  int
		legend []string
	}{
		{1, []string{"p0"}},
		{len(procColors), []string{"p0", "p1", "p2", "p3", "p4", "p5", "p6"}},
		{10, []string{"p0", "p1", "p2", "p3", "p4", "p5", "4 other procedures"}},
	} {
		var ranked []string
		for i := range tc.procs {
			ranked = append(ranked, fmt.Sprintf("p%d", i))
		}
		p := newPalette(ranked)
		var legend []string
		for _, it := range p.items {
			legend = append(legend, it.Name)
		}
		if !slices.Equal(legend, tc.legend) {
			t.Errorf("%d procedures: legend %q, want %q", tc.procs, legend, tc.legend)
		}
		if last := ranked[len(ranked)-1]; p.of(last) != procColors[min(tc.procs, len(procColors))-1] || p.of(ranked[0]) != procColors[0] {
			t.Errorf("%d procedures: the first is %s, the last %s", tc.procs, p.of(ranked[0]), p.of(last))
		}
	}
}

// TestCalibrationReport: one section per block with both charts, every
// run a point, and the flags of the blocks that have them; a line at the
// top for each block not pinned down, saying why.
func TestCalibrationReport(t *testing.T) {
	var rows []calibration.Row
	for _, n := range []float64{10, 100, 1000} {
		for rep := range 10 { // enough to bound each median
			rows = append(rows, calibration.Row{Block: "good", Alpha: []float64{n}, F: n, Seconds: 1e-6 * n, Machine: "m", Rep: rep},
				calibration.Row{Block: "drift", Alpha: []float64{n}, F: n, Seconds: 1e-6 * n * n, Machine: "m", Rep: rep})
		}
	}
	in := &CalibrationInput{Name: "cal", Rows: rows, Stats: calibration.Analyze(rows, calibration.DefaultThresholds)}
	var b bytes.Buffer
	if err := WriteCalibration(&b, in); err != nil {
		t.Fatal(err)
	}
	page := htmltest.Parse(t, b.Bytes())
	if n := len(page.All(htmltest.WithClass("card"))); n != 2 {
		t.Errorf("%d block sections, want 2", n)
	}
	if n := len(page.All(htmltest.WithClass("mark"))); n != 2*len(rows) {
		t.Errorf("%d points, want %d (every run in both charts)", n, 2*len(rows))
	}
	flags := page.All(htmltest.WithClass("flag"))
	if len(flags) != 1 || flags[0].Text() != "DRIFT" {
		t.Errorf("flags shown: %d, want DRIFT on the drifting block only", len(flags))
	}
	if len(page.All(htmltest.WithClass("warnings"))) != 0 || strings.Contains(page.Text(), "copies at once:") {
		t.Error("a warning or a slowdown without runs on a loaded machine or with copies")
	}
	// Runs that waited for a core, and runs with two copies at once.
	for i := range rows {
		rows[i].Wall = 2 * rows[i].Seconds
	}
	for _, n := range []float64{10, 100, 1000} {
		rows = append(rows, calibration.Row{Block: "good", Alpha: []float64{n}, F: n, Seconds: 1.5e-6 * n, Machine: "m", Copies: 2})
	}
	in = &CalibrationInput{Name: "cal", Rows: rows, Stats: calibration.Analyze(rows, calibration.DefaultThresholds)}
	b.Reset()
	if err := WriteCalibration(&b, in); err != nil {
		t.Fatal(err)
	}
	page = htmltest.Parse(t, b.Bytes())
	if w := page.All(htmltest.WithClass("warnings")); len(w) != 1 || !strings.Contains(w[0].Text(), "block good on m: the machine was loaded during 100% of its runs") {
		t.Errorf("%d warnings, want one naming each block the machine was loaded during", len(w))
	}
	if !strings.Contains(page.Text(), "×1.5 with 2 copies") {
		t.Error("the slowdown with 2 copies is not shown")
	}
	// Two runs of a block on each of two CPUs, 40% apart: its median is
	// not bounded, and its CPUs differ.
	rows = rows[:0]
	for rep := range 4 {
		rows = append(rows, calibration.Row{Block: "few", F: 1, Seconds: 1e-3 * (1 + 0.4*float64(rep%2)), Machine: "m", Rep: rep, CPU: rep % 2})
	}
	in = &CalibrationInput{Name: "cal", Rows: rows, Stats: calibration.Analyze(rows, calibration.DefaultThresholds)}
	b.Reset()
	if err := WriteCalibration(&b, in); err != nil {
		t.Fatal(err)
	}
	text := htmltest.Parse(t, b.Bytes()).Text()
	for _, want := range []string{"block few on m: c varies", "from too few runs to bound it: calibrate with -orders.reps 10 on a quiet machine",
		"block few on m: runs 40% slower on CPU 1 than on CPU 0", "CPU 0: 0.001, CPU 1: 0.0014 (+40%)", "unbounded (too few runs)"} {
		if !strings.Contains(text, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
}

// TestMeasuredRunReport: a real run's page says so, names workers rather
// than nodes, and shows neither the work/span bounds nor a critical path,
// which a real run does not have.
func TestMeasuredRunReport(t *testing.T) {
	in := sample()
	in.Sim.Run.Kind = result.Measured
	in.Sim.Path, in.Sweep = nil, nil
	in.Sim.Detail.Migrate = true
	var b bytes.Buffer
	if err := Write(&b, in); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	for _, want := range []string{"orders run, measured", "sort on 2 workers", "resuming on any free worker", "worker 0", "worker 1", "Load of every worker"} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
	for _, unwanted := range []string{"Critical path", "the critical path", "speedup the work and span allow", "node 0", "share of the critical path"} {
		if strings.Contains(page, unwanted) {
			t.Errorf("the page of a real run shows %q", unwanted)
		}
	}
}
