package htmlreport

import (
	"fmt"
	"html/template"

	"github.com/presage-dvm/presage/exports/chart"
	"github.com/presage-dvm/presage/exports/timeline"
	"github.com/presage-dvm/presage/sim/events"
	"github.com/presage-dvm/presage/sim/result"
)

// The per-processor view: a compact timeline of the run (when the report
// is given one) and, in every interval's section, the table of its
// per-processor values.

// procColumns are the per-processor table's characteristics.
var procColumns = []struct {
	Label string
	Char  result.Char
}{
	{"Execution time", result.ExecutionTime},
	{"CPU", result.CPUTime},
	{"Insufficient parallelism", result.InsuffParallelism},
	{"Communications", result.Communication},
	{"Synchronization", result.Synchronization},
	{"Idle time", result.Idle},
	{"Load imbalance", result.LoadImbalance},
	{"Efficiency", result.Efficiency},
}

// procTable is an interval's per-processor values, one row per processor.
type procTable struct {
	Head []string
	Rows []procRow
}

type procRow struct {
	Proc  int
	Cells []string
}

func newProcTable(iv *result.Interval) *procTable {
	if len(iv.Procs) == 0 {
		return nil
	}
	t := &procTable{}
	for _, c := range procColumns {
		t.Head = append(t.Head, c.Label)
	}
	for _, pv := range iv.Procs {
		r := procRow{Proc: pv.Proc}
		for _, c := range procColumns {
			r.Cells = append(r.Cells, num(pv.Values[c.Char]))
		}
		t.Rows = append(t.Rows, r)
	}
	return t
}

// timelineView is the timeline picture with its caption.
type timelineView struct {
	SVG     template.HTML
	Caption string
}

// timelineH is the height of the timeline's rows at most: a row is 14
// pixels high, less (down to 2) when there are many.
const timelineH = 360.0

func newTimelineView(s *events.Sample) *timelineView {
	if s == nil || len(s.States) == 0 || s.End <= 0 {
		return nil
	}
	shown := fmt.Sprintf("all %d processors", s.Total)
	if len(s.Procs) < s.Total {
		shown = fmt.Sprintf("%d of %d processors, evenly spread", len(s.Procs), s.Total)
	}
	return &timelineView{
		SVG: template.HTML(timelineChart(s).SVG()),
		Caption: fmt.Sprintf("What each processor does over the run (%s; one column = %s s; each cell shows its processor's main state in the column), recorded as the run was predicted: see docs/timeline.md.",
			shown, num(float64(s.Bucket)/1e9)),
	}
}

// timelineChart is a Gantt row per sampled processor; consecutive
// columns of one main state are one bar, so the picture stays small.
func timelineChart(s *events.Sample) *chart.Rows {
	rowH := min(14.0, max(2.0, timelineH/float64(len(s.States))))
	col := float64(s.Bucket) / 1e9 // s
	c := &chart.Rows{
		Frame: chart.Frame{Class: "timeline", Title: fmt.Sprintf("timeline of %d processors", len(s.States))},
		RowH:  rowH, Tracks: []chart.Track{{H: max(rowH-0.5, 1)}},
		X: chart.Axis{Scale: chart.Scale{Hi: col * float64(len(s.States[0]))}, Label: "time, s"},
	}
	for r, row := range s.States {
		cr := chart.Row{Label: fmt.Sprint(s.Procs[r])}
		for i := 0; i < len(row); {
			st := row[i]
			e := i + 1
			for e < len(row) && row[e] == st {
				e++
			}
			if st != 0 {
				cr.Bars = append(cr.Bars, chart.Bar{From: col * float64(i), To: col * float64(e), Color: timeline.Color(st), Class: "state",
					Tip: fmt.Sprintf("processor %d: %s", s.Procs[r], st)})
			}
			i = e
		}
		c.Rows = append(c.Rows, cr)
	}
	var legend []chart.LegendItem
	for _, st := range timeline.States() {
		legend = append(legend, chart.LegendItem{Name: st.String(), Color: timeline.Color(st), Swatch: chart.SwatchBox})
	}
	c.Legend = []chart.LegendGroup{{Items: legend}}
	return c
}
