package timeline

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/presage-dvm/presage/schema/stored"
)

// migrated is an orders run on two workers: main runs 0–1 on worker 0,
// suspends, and resumes on worker 1 at 2.5 until 3; leaf order 2 runs
// 1–2 on worker 0 and leaf order 3 1–2.5 on worker 1; order 4, stored
// without stretches nor procedure, ran 3–3.5 on worker 1.
func migrated() ([]stored.OrderEvent, []stored.OrderStretch) {
	return []stored.OrderEvent{
			{Order: 1, Proc: "main", End: 3, Wait: 1.5},
			{Order: 2, Proc: "leaf", Parent: 1, Start: 1, End: 2},
			{Order: 3, Proc: "leaf", Parent: 1, Child: 1, Node: 1, Start: 1, End: 2.5},
			{Order: 4, Parent: 1, Child: 2, Node: 1, Start: 3, End: 3.5},
		}, []stored.OrderStretch{
			{Order: 1, Seq: 0, Node: 0, Start: 0, End: 1}, {Order: 1, Seq: 1, Node: 1, Start: 2.5, End: 3},
			{Order: 2, Node: 0, Start: 1, End: 2},
			{Order: 3, Node: 1, Start: 1, End: 2.5},
		}
}

// traceEvent is what the tests read of a Chrome trace event.
type traceEvent struct {
	Ph, Name, Cat, Bp string
	Tid               int
	Ts, Dur           float64
	ID                int64
	Args              map[string]any
}

// slice is an "X" event as the tests expect it: times in seconds.
type slice struct {
	name          string
	tid           int
	from, to      float64
	order, parent int64
}

// TestOrdersPerfetto: the JSON parses; it names a thread per node (per
// core used when a node ran orders at once); every stretch is a slice
// named by its procedure with its order and parent, an order without
// stretches one slice; slices on a thread do not overlap; a migration is
// a flow from the stretch it left to the one it resumed.
func TestOrdersPerfetto(t *testing.T) {
	events, stretches := migrated()
	for _, tc := range []struct {
		name      string
		label     string
		nodes     int
		events    []stored.OrderEvent
		stretches []stored.OrderStretch
		threads   []string
		slices    []slice
		flows     [][2]float64 // from tid, at; to tid, at: as pairs of (tid, s)
	}{
		{"migrated", "worker", 2, events, stretches,
			[]string{"worker 0", "worker 1"},
			[]slice{{"main", 0, 0, 1, 1, 0}, {"main", 1, 2.5, 3, 1, 0}, {"leaf", 0, 1, 2, 2, 1}, {"leaf", 1, 1, 2.5, 3, 1}, {"order", 1, 3, 3.5, 4, 1}},
			[][2]float64{{0, 1 - 1e-9}, {1, 2.5}}},
		{"two cores", "node", 2, []stored.OrderEvent{{Order: 1, Proc: "a"}, {Order: 2, Proc: "b", Parent: 1}, {Order: 3, Proc: "c", Parent: 1}},
			[]stored.OrderStretch{{Order: 1, Start: 0, End: 2}, {Order: 2, Start: 1, End: 3}, {Order: 3, Start: 2, End: 4}},
			[]string{"node 0 core 0", "node 0 core 1", "node 1"},
			[]slice{{"a", 0, 0, 2, 1, 0}, {"b", 1, 1, 3, 2, 1}, {"c", 0, 2, 4, 3, 1}}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var b bytes.Buffer
			if err := WriteOrdersPerfetto(&b, "run 7", tc.label, tc.nodes, tc.events, tc.stretches); err != nil {
				t.Fatal(err)
			}
			var doc struct{ TraceEvents []traceEvent }
			if err := json.Unmarshal(b.Bytes(), &doc); err != nil {
				t.Fatalf("not JSON: %v\n%s", err, b.String())
			}
			var threads []string
			var got []slice
			var flows [][2]float64
			ids := map[int64]int{}
			for _, e := range doc.TraceEvents {
				switch e.Ph {
				case "M":
					if e.Name == "thread_name" {
						if e.Tid != len(threads) {
							t.Errorf("thread %d named after %d threads", e.Tid, len(threads))
						}
						threads = append(threads, e.Args["name"].(string))
					}
				case "X":
					got = append(got, slice{e.Name, e.Tid, e.Ts / 1e6, (e.Ts + e.Dur) / 1e6,
						int64(e.Args["order"].(float64)), int64(e.Args["parent"].(float64))})
				case "s", "f":
					flows = append(flows, [2]float64{float64(e.Tid), e.Ts / 1e6})
					ids[e.ID]++
					if e.Ph == "f" && e.Bp != "e" {
						t.Errorf("flow end %+v not bound to its enclosing slice", e)
					}
				}
			}
			if !slices.Equal(threads, tc.threads) {
				t.Errorf("threads %q, want %q", threads, tc.threads)
			}
			if !slices.EqualFunc(got, tc.slices, func(a, b slice) bool {
				return a.name == b.name && a.tid == b.tid && a.order == b.order && a.parent == b.parent &&
					math.Abs(a.from-b.from) < 1e-12 && math.Abs(a.to-b.to) < 1e-12
			}) {
				t.Errorf("slices %v\nwant %v", got, tc.slices)
			}
			if !slices.EqualFunc(flows, tc.flows, func(a, b [2]float64) bool { return a[0] == b[0] && math.Abs(a[1]-b[1]) < 1e-12 }) {
				t.Errorf("flows %v, want %v", flows, tc.flows)
			}
			for id, n := range ids {
				if n != 2 {
					t.Errorf("flow %d has %d ends, want a start and an end", id, n)
				}
			}
			for i, a := range got {
				for _, c := range got[i+1:] {
					if a.tid == c.tid && a.from < c.to && c.from < a.to {
						t.Errorf("slices %v and %v overlap on thread %d", a, c, a.tid)
					}
				}
			}
		})
	}
}

// TestOrdersParaver: the .prv has a state record per stretch (per order
// without stretches) on its worker's thread, whose state is the
// procedure's; the .pcf names the procedures, the most time first; the
// .row names the workers; past 255 procedures the last state is the
// others'.
func TestOrdersParaver(t *testing.T) {
	events, stretches := migrated()
	var prv, pcf, row bytes.Buffer
	if err := WriteOrdersParaver(&prv, &pcf, &row, "run 7", "worker", 2, events, stretches); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(prv.String()), "\n")
	if !strings.HasPrefix(lines[0], "#Paraver (01/01/70 at 00:00):3500000000_ns:1(2):1:2(1:1,1:1)") {
		t.Errorf("header %q", lines[0])
	}
	// leaf ran 2.5 s, main 1.5 s, the unnamed order 0.5 s: states 1, 2, 3.
	want := []string{
		"1:1:1:1:1:0:1000000000:2",
		"1:1:1:1:1:1000000000:2000000000:1",
		"1:2:1:2:1:1000000000:2500000000:1",
		"1:2:1:2:1:2500000000:3000000000:2",
		"1:2:1:2:1:3000000000:3500000000:3",
	}
	if !slices.Equal(lines[1:], want) {
		t.Errorf("records\n%s\nwant\n%s", strings.Join(lines[1:], "\n"), strings.Join(want, "\n"))
	}
	for _, s := range []string{"1    leaf\n", "2    main\n", "3    order\n", "NUM_OF_STATE_COLORS 4\n"} {
		if !strings.Contains(pcf.String(), s) {
			t.Errorf("pcf lacks %q:\n%s", s, pcf.String())
		}
	}
	if strings.Contains(pcf.String(), "tag") {
		t.Error("pcf names message tags: there are none")
	}
	if n := strings.Count(row.String(), "worker "); n != 4 {
		t.Errorf("row names %d workers, want 2 tasks and 2 threads:\n%s", n, row.String())
	}

	var many []stored.OrderEvent
	for i := range 300 {
		many = append(many, stored.OrderEvent{Order: int64(i + 1), Proc: fmt.Sprintf("p%03d", i), Start: float64(i), End: float64(i + 1)})
	}
	pcf.Reset()
	if err := WriteOrdersParaver(&prv, &pcf, &row, "many", "node", 1, many, nil); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(pcf.String(), "254  p253\n255  46 other procedures\n\n") || !strings.Contains(pcf.String(), "NUM_OF_STATE_COLORS 256\n") {
		t.Errorf("300 procedures: pcf\n%s", pcf.String())
	}
}
