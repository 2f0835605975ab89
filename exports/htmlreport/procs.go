package htmlreport

import (
	"fmt"
	"html/template"
	"strconv"
	"strings"

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

// timelineView is the timeline picture with its legend.
type timelineView struct {
	SVG     template.HTML
	Legend  []legendItem
	Caption string
}

type legendItem struct{ Name, Color string }

// Geometry of the picture (SVG user units).
const (
	svgLabel  = 90  // width of the processor labels
	svgWidth  = 900 // width of the time axis
	svgAxis   = 28  // height of the time axis below
	svgHeight = 360 // height of the rows at most
)

func newTimelineView(s *events.Sample) *timelineView {
	if s == nil || len(s.States) == 0 || s.End <= 0 {
		return nil
	}
	v := &timelineView{SVG: template.HTML(timelineSVG(s))}
	for _, st := range timeline.States() {
		v.Legend = append(v.Legend, legendItem{st.String(), timeline.Color(st)})
	}
	shown := fmt.Sprintf("all %d processors", s.Total)
	if len(s.Procs) < s.Total {
		shown = fmt.Sprintf("%d of %d processors, evenly spread", len(s.Procs), s.Total)
	}
	v.Caption = fmt.Sprintf("What each processor does over the run (%s; one column = %s s; each cell shows its processor's main state in the column). Re-simulated from the stored trace: see docs/timeline.md.",
		shown, num(float64(s.Bucket)/1e9))
	return v
}

// timelineSVG draws one row per sampled processor; consecutive columns
// of one main state are one rectangle, so the picture stays small.
func timelineSVG(s *events.Sample) string {
	rows := len(s.States)
	rowH := min(14.0, max(2.0, float64(svgHeight)/float64(rows)))
	cols := len(s.States[0])
	colW := float64(svgWidth) / float64(cols)
	h := rowH*float64(rows) + svgAxis
	var b strings.Builder
	fmt.Fprintf(&b, `<svg class="timeline" viewBox="0 0 %d %s" role="img" aria-label="timeline of %d processors" xmlns="http://www.w3.org/2000/svg">`,
		svgLabel+svgWidth+10, f(h), rows)
	labelEvery := max(1, int(12/rowH+0.999))
	for r, row := range s.States {
		y := rowH * float64(r)
		if r%labelEvery == 0 || r == rows-1 && rows <= 40 {
			fmt.Fprintf(&b, `<text x="%d" y="%s" class="pl">%d</text>`, svgLabel-6, f(y+rowH/2+4), s.Procs[r])
		}
		for c := 0; c < len(row); {
			st := row[c]
			e := c + 1
			for e < len(row) && row[e] == st {
				e++
			}
			if st != 0 {
				fmt.Fprintf(&b, `<rect x="%s" y="%s" width="%s" height="%s" fill="%s"><title>processor %d: %s</title></rect>`,
					f(svgLabel+colW*float64(c)), f(y), f(colW*float64(e-c)), f(max(rowH-0.5, 1)), timeline.Color(st), s.Procs[r], st)
			}
			c = e
		}
	}
	axisY := rowH * float64(rows)
	fmt.Fprintf(&b, `<line x1="%d" y1="%s" x2="%d" y2="%s" class="ax"/>`, svgLabel, f(axisY+1), svgLabel+svgWidth, f(axisY+1))
	span := float64(s.Bucket) * float64(cols) / 1e9
	for i := 0; i <= 4; i++ {
		x := svgLabel + svgWidth*float64(i)/4
		anchor := "middle"
		if i == 4 {
			anchor = "end"
		}
		fmt.Fprintf(&b, `<text x="%s" y="%s" class="tl" text-anchor="%s">%s s</text>`, f(x), f(axisY+18), anchor, num(span*float64(i)/4))
	}
	b.WriteString(`</svg>`)
	return b.String()
}

// f formats an SVG coordinate.
func f(v float64) string { return strconv.FormatFloat(v, 'f', 2, 64) }
