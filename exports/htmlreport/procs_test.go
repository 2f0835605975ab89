package htmlreport

import (
	"strings"
	"testing"

	"github.com/presage-dvm/presage/exports/timeline"
	"github.com/presage-dvm/presage/sim/events"
	"github.com/presage-dvm/presage/sim/result"
)

// TestPerProcessorView: every interval with per-processor values gets
// their table, and a timeline sample becomes one SVG row per sampled
// processor whose equal columns are merged into one rectangle.
func TestPerProcessorView(t *testing.T) {
	run := testRun()
	for _, iv := range run.Intervals {
		for p := range 4 {
			pv := result.NewProcValues(p)
			pv.Values[result.ExecutionTime] = 0.5 + float64(p)
			iv.Procs = append(iv.Procs, pv)
		}
	}
	sm := events.NewSampler(4, 3, 8)
	sm.State(events.Computing, events.AllProcs(4), 0, 500e-9)
	sm.State(events.Collective, events.AllProcs(4), 500e-9, 300e-9)
	html := string(render(t, run, Options{Timeline: sm.Sample()}))
	if n := strings.Count(html, `<details class="procs">`); n != len(run.Intervals) {
		t.Errorf("%d per-processor tables, want %d", n, len(run.Intervals))
	}
	if !strings.Contains(html, `<th scope="row" class="num">3</th><td class="num">3.5000</td>`) {
		t.Error("processor 3's Execution_time 3.5000 is not in its row")
	}
	svg := html[strings.Index(html, "<svg"):strings.Index(html, "</svg>")]
	if n := strings.Count(svg, `<rect class="state"`); n != 3*2 {
		t.Errorf("%d rectangles, want 2 per sampled row (3 rows of 4 processors)", n)
	}
	for _, want := range []string{timeline.Color(events.Computing), timeline.Color(events.Collective), "processor 3: Collective", "3 of 4 processors"} {
		if !strings.Contains(html, want) {
			t.Errorf("report lacks %q", want)
		}
	}
	if strings.Contains(string(render(t, run, Options{})), "<svg") {
		t.Error("a report without a timeline draws one")
	}
}
