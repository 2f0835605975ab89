package htmlreport

import (
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/presage-dvm/presage/exports/timeline"
	"github.com/presage-dvm/presage/sim/events"
	"github.com/presage-dvm/presage/sim/result"
)

// TestPerProcessorView: every interval with per-processor values gets
// their table, and a timeline sample becomes a picture.
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
	for _, want := range []string{timeline.Color(events.Computing), timeline.Color(events.Collective), "processor 3: Collective", "3 of 4 processors"} {
		if !strings.Contains(html, want) {
			t.Errorf("report lacks %q", want)
		}
	}
	if strings.Contains(string(render(t, run, Options{})), "<svg") {
		t.Error("a report without a timeline draws one")
	}
}

// TestTimelineBands: a row is cut into 8 bands shared between the states
// of each column; equal neighbours in a band are one rectangle. Without
// shares (a picture stored before them) each column shows its main state.
func TestTimelineBands(t *testing.T) {
	const C, R, X = events.Computing, events.Redundant, events.Collective
	sm := &events.Sample{Procs: []int{0, 3}, Total: 4, Bucket: 100, End: 400,
		States: [][]events.State{{C, C, C, 0}, {C, R, R, R}},
		Mixes: [][]events.Mix{
			{{C: 255}, {C: 255}, {C: 128, X: 127}, {}}, // half and half: 4 bands each
			{{C: 255}, {R: 255}, {R: 255}, {R: 128}},   // half a column: 4 bands, 4 blank
		}}
	rects := func(sm *events.Sample) map[string]int {
		n := map[string]int{}
		for _, r := range timelineChart(sm).Rows {
			for _, b := range r.Bars {
				n[r.Label+" "+b.Tip[strings.Index(b.Tip, ": ")+2:]]++
			}
		}
		return n
	}
	// Row 0: bands 0-3 one computing bar; bands 4-7 computing, then
	// collective. Row 3: every band computing then redundant.
	want := map[string]int{"0 Computing": 8, "0 Collective": 4, "3 Computing": 8, "3 Redundant": 8}
	if got := rects(sm); !maps.Equal(got, want) {
		t.Errorf("rectangles %v, want %v", got, want)
	}
	sm.Mixes = nil
	want = map[string]int{"0 Computing": 1, "3 Computing": 1, "3 Redundant": 1}
	if got := rects(sm); !maps.Equal(got, want) {
		t.Errorf("without shares: rectangles %v, want %v", got, want)
	}
}

func TestStack(t *testing.T) {
	const C, R, W = events.Computing, events.Redundant, events.Waiting
	for _, tc := range []struct {
		mix  events.Mix
		n    int
		want []events.State
	}{
		{events.Mix{C: 255}, 4, []events.State{C, C, C, C}},
		{events.Mix{}, 2, []events.State{0, 0}},
		{events.Mix{W: 200, C: 55}, 4, []events.State{C, W, W, W}},              // 0.86 and 3.14 bands
		{events.Mix{R: 10, C: 245}, 4, []events.State{C, C, C, C}},              // 0.16 of a band: rounded away
		{events.Mix{R: 100, C: 100}, 8, []events.State{C, C, C, R, R, R, 0, 0}}, // 3.14 each, 6.27 in all
		{events.Mix{R: 128, C: 127}, 1, []events.State{R}},                      // one band: the larger share
	} {
		if got := stack(tc.mix, tc.n); !slices.Equal(got, tc.want) {
			t.Errorf("stack(%v, %d) = %v, want %v", tc.mix, tc.n, got, tc.want)
		}
	}
	if !slices.Equal(slices.Sorted(slices.Values(stackOrder)), timeline.States()) {
		t.Errorf("stackOrder %v does not hold every state %v", stackOrder, timeline.States())
	}
}
