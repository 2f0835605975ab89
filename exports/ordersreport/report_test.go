package ordersreport

import (
	"bytes"
	"strings"
	"testing"

	"github.com/presage-dvm/presage/exports/htmltest"
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
		t.Errorf("%d points marked as meeting the 4 s deadline, want 1 (4 nodes; 2 nodes is this run)", n)
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

// TestCalibrationReport: one section per block with both charts, every
// run a point, and the flags of the blocks that have them.
func TestCalibrationReport(t *testing.T) {
	var rows []calibration.Row
	for _, n := range []float64{10, 100, 1000} {
		for rep := range 2 {
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
}
