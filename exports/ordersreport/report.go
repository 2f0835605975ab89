package ordersreport

import (
	"bytes"
	"cmp"
	_ "embed"
	"fmt"
	"html/template"
	"io"
	"slices"
	"strings"

	"github.com/presage-dvm/presage/exports/internal/htmlstyle"
	"github.com/presage-dvm/presage/schema/stored"
	"github.com/presage-dvm/presage/sim/result"
)

// maxPathSteps bounds the critical path's table.
const maxPathSteps = 200

// maxProcRows bounds the procedures' table: the ones with the most work
// are shown.
const maxProcRows = 50

// maxTimelineNodes bounds the rows of the timeline and of the load chart:
// larger clusters show their first nodes and say how many are left out.
const maxTimelineNodes = 64

// Input is what the report shows.
type Input struct {
	Sim *stored.OrderSimulation
	// Sweep, when not empty, are the simulations of the sweep Sim belongs
	// to, by node count: the speedup chart.
	Sweep    []stored.OrderRunRow
	Deadline float64 // s; when positive, marked on the sweep's chart
}

//go:embed report.tmpl
var pageText string

//go:embed style.css
var style string

var page = htmlstyle.Page("orders", pageText, style)

// view is the template's data.
type view struct {
	// Measured is set for a real run (stored from its measured-run file):
	// workers instead of nodes, and no trace, so no work/span bounds and
	// no critical path.
	Measured                                         bool
	Unit                                             string // "node", or "worker" ("process" for worker processes) for a real run
	Units                                            string // its plural
	Migrate                                          bool
	Title, Program, Scheduler                        string
	RunID                                            int64
	Nodes, Cores, ShownNodes                         int
	Makespan, Work, Span, Burdened, Parallelism      float64
	Speedup, SpeedupLo, SpeedupHi, Efficiency, Power float64
	Latency, Bandwidth                               float64
	Timeline, Loads, SpeedupChart                    template.HTML
	NoEvents                                         string // why the orders' own schedules are not drawn, "" when they are
	Path                                             []stored.PathStep
	PathSteps                                        int
	Procs                                            []procRow
	ProcCount                                        int
}

// procRow is a line of the procedures' table.
type procRow struct {
	Proc      string
	Orders    int64
	Work      float64 // s
	WorkShare float64 // % of the work of every procedure
	PathShare float64 // % of the critical path (the makespan) running its orders
	Mean, SD  float64 // of an order's duration, s
}

// procRows are the table's lines, the most work first.
func procRows(s *stored.OrderSimulation) []procRow {
	var total float64
	for _, p := range s.Procs {
		total += p.Work
	}
	rows := make([]procRow, 0, len(s.Procs))
	for _, p := range s.Procs {
		r := procRow{Proc: p.Proc, Orders: p.Orders, Work: p.Work, Mean: p.MeanDuration, SD: p.SDDuration}
		if total > 0 {
			r.WorkShare = 100 * p.Work / total
		}
		if m := s.Detail.Makespan; m > 0 {
			r.PathShare = 100 * p.PathTime / m
		}
		rows = append(rows, r)
	}
	slices.SortFunc(rows, func(a, b procRow) int { return cmp.Or(cmp.Compare(b.Work, a.Work), strings.Compare(a.Proc, b.Proc)) })
	return rows
}

// noEvents says why a simulation has no order's own schedule to draw, or
// "" when it has: a sweep keeps none, a single simulation none of a trace
// with more orders than its --max-events.
func noEvents(s *stored.OrderSimulation) string {
	switch {
	case len(s.Events) > 0:
		return ""
	case s.Run.SweepID != 0:
		return fmt.Sprintf("The orders' own schedules are not stored for the runs of a sweep (this is run %d of sweep %d): presage orders simulate with the same cluster stores them; the chart shows the critical path only.", s.Run.ID, s.Run.SweepID)
	}
	return "The orders' own schedules were not stored (the trace has more orders than --max-events): the chart shows the critical path only."
}

// unitOf is what the run's rows are: nodes of a simulated cluster, or the
// workers of a real run (its worker processes when it had some).
func unitOf(s *stored.OrderSimulation) string {
	switch {
	case !isMeasured(s):
		return "node"
	case s.Detail.Processes > 0:
		return "process"
	}
	return "worker"
}

// plural is the plural of a unit of unitOf.
func plural(unit string) string {
	if unit == "process" {
		return "processes"
	}
	return unit + "s"
}

func isMeasured(s *stored.OrderSimulation) bool { return s.Run != nil && s.Run.Kind == result.Measured }

// Write writes the report of in as one self-contained HTML page.
func Write(w io.Writer, in *Input) error {
	s := in.Sim
	d := s.Detail
	unit := unitOf(s)
	measured := isMeasured(s)
	v := view{Measured: measured, Unit: unit, Units: plural(unit), Migrate: d.Migrate,
		Title: fmt.Sprintf("%s on %d %s", s.Run.Program, d.Nodes, plural(unit)), Program: s.Run.Program, Scheduler: d.Scheduler,
		RunID: s.Run.ID, Nodes: d.Nodes, Cores: d.Cores, ShownNodes: min(d.Nodes, maxTimelineNodes),
		Makespan: d.Makespan, Work: d.Work, Span: d.Span, Burdened: d.BurdenedSpan, Parallelism: d.Parallelism,
		Speedup: d.Speedup, SpeedupLo: d.SpeedupLo, SpeedupHi: d.SpeedupHi, Power: d.Power,
		Latency: d.Latency, Bandwidth: d.Bandwidth, NoEvents: noEvents(s),
		Path: s.Path[:min(len(s.Path), maxPathSteps)], PathSteps: len(s.Path),
		Timeline: timeline(s), Loads: loads(s),
	}
	v.Procs = procRows(s)
	v.ProcCount = len(v.Procs)
	v.Procs = v.Procs[:min(len(v.Procs), maxProcRows)]
	if n := float64(d.Nodes * d.Cores); n > 0 {
		v.Efficiency = d.Speedup / n
	}
	if len(in.Sweep) > 1 {
		v.SpeedupChart = speedupChart(in.Sweep, d.Nodes, in.Deadline)
	}
	var b bytes.Buffer
	if err := page().Execute(&b, v); err != nil {
		return fmt.Errorf("run %d: orders report: %w", s.Run.ID, err)
	}
	_, err := w.Write(b.Bytes())
	return err
}
