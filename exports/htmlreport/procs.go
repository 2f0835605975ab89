package htmlreport

import (
	"fmt"
	"html/template"

	"github.com/presage-dvm/presage/exports/internal/chart"
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

// timelineH is the height of the timeline's rows at most: a row is 24
// pixels high (room for the bands of its states), less (down to 2) when
// there are many.
const timelineH = 360.0

func newTimelineView(s *events.Sample) *timelineView {
	if s == nil || len(s.States) == 0 || s.End <= 0 {
		return nil
	}
	shown := fmt.Sprintf("all %d processors", s.Total)
	if len(s.Procs) < s.Total {
		shown = fmt.Sprintf("%d of %d processors, evenly spread", len(s.Procs), s.Total)
	}
	cell := "each cell shows its processor's main state in the column"
	if s.Mixes != nil {
		cell = "each column of a row is shared between the states in proportion to the time its processor spent in them, computing at the bottom, the time lost above it, blank where it did nothing"
	}
	return &timelineView{
		SVG: template.HTML(timelineChart(s).SVG()),
		Caption: fmt.Sprintf("What each processor does over the run (%s; one column = %s s; %s), recorded as the run was predicted: see docs/timeline.md.",
			shown, num(float64(s.Bucket)/1e9), cell),
	}
}

// timelineChart is a Gantt row per sampled processor. A row is cut into
// horizontal bands, each column giving its states bands in proportion to
// their shares (one band: the main state); consecutive columns of one
// state in a band are one bar, so the picture stays small.
func timelineChart(s *events.Sample) *chart.Rows {
	rowH := min(24.0, max(2.0, timelineH/float64(len(s.States))))
	col := float64(s.Bucket) / 1e9 // s
	n := 1
	if s.Mixes != nil {
		n = bandsIn(rowH)
	}
	c := &chart.Rows{
		Frame: chart.Frame{Class: "timeline", Title: fmt.Sprintf("timeline of %d processors", len(s.States))},
		RowH:  rowH, Tracks: bandTracks(rowH, n),
		X: chart.Axis{Scale: chart.Scale{Hi: col * float64(len(s.States[0]))}, Label: "time, s"},
	}
	for r, row := range s.States {
		cr := chart.Row{Label: fmt.Sprint(s.Procs[r])}
		levels := make([][]events.State, len(row)) // per column, per band
		for i, st := range row {
			if n == 1 {
				levels[i] = []events.State{st}
			} else {
				levels[i] = stack(s.Mixes[r][i], n)
			}
		}
		for b := range n {
			for i := 0; i < len(row); {
				st := levels[i][b]
				e := i + 1
				for e < len(row) && levels[e][b] == st {
					e++
				}
				if st != 0 {
					cr.Bars = append(cr.Bars, chart.Bar{From: col * float64(i), To: col * float64(e), Track: b, Color: timeline.Color(st), Class: "state",
						Tip: fmt.Sprintf("processor %d: %s", s.Procs[r], st)})
				}
				i = e
			}
		}
		c.Rows = append(c.Rows, cr)
	}
	var legend []chart.LegendItem
	for _, st := range stackOrder {
		legend = append(legend, chart.LegendItem{Name: st.String(), Color: timeline.Color(st), Swatch: chart.SwatchBox})
	}
	c.Legend = []chart.LegendGroup{{Items: legend}}
	return c
}

// bandsIn is the number of bands a row of height h is cut into: bands of
// at least 1.5 pixels, at most 8 (shares to an eighth).
func bandsIn(h float64) int { return max(1, min(8, int(h/1.5))) }

// bandTracks are n bands filling a row of height h but its bottom half
// pixel, band 0 at the bottom.
func bandTracks(h float64, n int) []chart.Track {
	bh := max(h-0.5, 1) / float64(n)
	tracks := make([]chart.Track, n)
	for i := range tracks {
		tracks[i] = chart.Track{Y: max(h-0.5, 1) - float64(i+1)*bh, H: bh}
	}
	return tracks
}

// stackOrder is the order of the states in a column, from the bottom: the
// useful work, then the time lost; also the legend's order.
var stackOrder = []events.State{events.Computing, events.InputOutput, events.Redundant,
	events.Communicating, events.Collective, events.Waiting}

// stack gives n bands to the states of m in proportion to their shares
// (largest remainders first; ties to the earlier state), bottom up in
// stackOrder; the bands of the time in no state stay 0 (blank).
func stack(m events.Mix, n int) []events.State {
	total := 0
	for _, st := range stackOrder {
		total += int(m[st])
	}
	filled := (total*n + 127) / 255
	count := make([]int, len(stackOrder))
	rem := make([]int, len(stackOrder))
	for i, st := range stackOrder {
		count[i], rem[i] = int(m[st])*n/255, int(m[st])*n%255
		filled -= count[i]
	}
	for ; filled > 0; filled-- {
		best := 0
		for i := range rem {
			if rem[i] > rem[best] {
				best = i
			}
		}
		if rem[best] == 0 {
			break
		}
		count[best]++
		rem[best] = 0
	}
	out := make([]events.State, 0, n)
	for i, st := range stackOrder {
		for range count[i] {
			out = append(out, st)
		}
	}
	for len(out) < n {
		out = append(out, 0)
	}
	return out[:n]
}
