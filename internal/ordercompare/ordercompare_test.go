package ordercompare

import (
	"math"
	"strings"
	"testing"

	"github.com/presage-dvm/presage/schema/stored"
	"github.com/presage-dvm/presage/sim/result"
)

// ev is an order of a test run: number, procedure, parent, place, node,
// start, end and wait.
func ev(order int64, proc string, parent int64, child, node int, start, end, wait float64) stored.OrderEvent {
	return stored.OrderEvent{Order: order, Proc: proc, Parent: parent, Child: child, Node: node, Ready: start, Start: start, End: end, Wait: wait}
}

// run is an orders run of the events, with their per-procedure sums.
func run(id int64, kind result.Kind, makespan float64, events ...stored.OrderEvent) *stored.OrderSimulation {
	return &stored.OrderSimulation{Run: &result.Run{ID: id, Kind: kind, Program: "sort"},
		Detail: stored.OrderRun{Scheduler: "fifo", Nodes: 2, Cores: 1, Makespan: makespan},
		Events: events, Procs: stored.SumOrderProcs(events)}
}

// The same tree, numbered differently: main makes two halves, the first
// half two leaves. The real run made the second half before the first's
// leaves; the trace numbers depth first.
func measuredSort() *stored.OrderSimulation {
	return run(7, result.Measured, 10,
		ev(1, "sort", 0, 0, 0, 0, 10, 6),
		ev(2, "half", 1, 0, 1, 1, 6, 2),
		ev(3, "half", 1, 1, 0, 1, 4, 0),
		ev(4, "leaf", 2, 0, 1, 2, 4, 0),
		ev(5, "leaf", 2, 1, 0, 4, 5, 0))
}

func predictedSort() *stored.OrderSimulation {
	return run(9, result.Predicted, 8,
		ev(1, "sort", 0, 0, 0, 0, 8, 5),
		ev(2, "half", 1, 0, 1, 1, 5, 2),
		ev(3, "leaf", 2, 0, 1, 2, 3, 0),
		ev(4, "leaf", 2, 1, 0, 3, 5, 0),
		ev(5, "half", 1, 1, 0, 1, 3, 0))
}

// TestCompareMatchesByPlace: every order is matched with the one at the
// same place of the other tree, whatever its number; the differences are
// predicted − measured; procedures and makespans are compared.
func TestCompareMatchesByPlace(t *testing.T) {
	c, err := Compare(measuredSort(), predictedSort())
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Warnings) != 0 || len(c.UnmatchedMeasured) != 0 || len(c.UnmatchedPredicted) != 0 {
		t.Fatalf("warnings %q, unmatched %+v %+v", c.Warnings, c.UnmatchedMeasured, c.UnmatchedPredicted)
	}
	pairs := map[int64]int64{}
	for _, m := range c.Orders {
		pairs[m.Measured.Order] = m.Predicted.Order
	}
	want := map[int64]int64{1: 1, 2: 2, 3: 5, 4: 3, 5: 4}
	for k, v := range want {
		if pairs[k] != v {
			t.Errorf("measured order %d matched with %d, want %d (all: %v)", k, pairs[k], v, pairs)
		}
	}
	// In the measured run's order of start.
	if got := []int64{c.Orders[0].Measured.Order, c.Orders[1].Measured.Order, c.Orders[2].Measured.Order}; got[0] != 1 || got[1] != 2 || got[2] != 3 {
		t.Errorf("first orders %v, want 1 2 3 (by measured start, then number)", got)
	}
	for _, m := range c.Orders {
		if m.Measured.Order != 2 {
			continue
		}
		// Measured 1..6 with 2 s waiting; predicted 1..5 with 2.
		for _, x := range []struct {
			name string
			got  Pair
			want Pair
		}{
			{"start", m.Start, Pair{1, 1, 0, 0}},
			{"end", m.End, Pair{6, 5, -1, -1.0 / 6}},
			{"duration", m.Duration, Pair{5, 4, -1, -0.2}},
			{"work", m.Work, Pair{3, 2, -1, -1.0 / 3}},
		} {
			if !close(x.got, x.want) {
				t.Errorf("order 2's %s %+v, want %+v", x.name, x.got, x.want)
			}
		}
	}
	if !close(c.Makespan, Pair{10, 8, -2, -0.2}) {
		t.Errorf("makespan %+v", c.Makespan)
	}
	if len(c.Procs) != 3 || c.Procs[0].Name != "half" || c.Procs[1].Name != "leaf" || c.Procs[2].Name != "sort" {
		t.Fatalf("procedures %+v, want half, leaf, sort", c.Procs)
	}
	// Halves: measured durations 5 and 3, running 3 and 3; predicted 4
	// and 2, running 2 and 2.
	if h := c.Procs[0]; h.Matched != 2 || !close(h.Orders, Pair{2, 2, 0, 0}) || !close(h.MeanDuration, Pair{4, 3, -1, -0.25}) ||
		!close(h.Work, Pair{6, 4, -2, -1.0 / 3}) {
		t.Errorf("half %+v", h)
	}
	s := c.Summary
	if s.Matched != 5 || s.UnmatchedMeasured != 0 || s.UnmatchedPredicted != 0 || s.DurationCount != 5 {
		t.Errorf("summary %+v", s)
	}
	// Durations: sort 10→8, halves 5→4 and 3→2, leaves 2→1 and 1→2.
	if want := (0.2 + 0.2 + 1.0/3 + 0.5 + 1) / 5; math.Abs(s.DurationMAPE-want) > 1e-12 {
		t.Errorf("duration MAPE %v, want %v", s.DurationMAPE, want)
	}
}

// TestCompareMismatch: a real run of another size and a procedure at a
// place where the other side has another leave subtrees unmatched, named
// by their roots with their sizes and why.
func TestCompareMismatch(t *testing.T) {
	m := measuredSort()
	// The first half makes a third leaf, with a child of its own; the
	// second half runs "merge" where the prediction has "half".
	m.Events = append(m.Events, ev(6, "leaf", 2, 2, 1, 5, 6, 0), ev(7, "tiny", 6, 0, 1, 5.5, 5.8, 0))
	m.Events[2].Proc = "merge"
	m.Procs = stored.SumOrderProcs(m.Events)
	p := predictedSort()
	// The prediction's second leaf has a child the real run lacks.
	p.Events = append(p.Events, ev(6, "tiny", 4, 0, 0, 4, 4.5, 0))
	p.Procs = stored.SumOrderProcs(p.Events)
	c, err := Compare(m, p)
	if err != nil {
		t.Fatal(err)
	}
	if s := c.Summary; s.Matched != 4 || s.UnmatchedMeasured != 3 || s.UnmatchedPredicted != 2 {
		t.Errorf("summary %+v, want 4 matched, 3 measured and 2 predicted unmatched", s)
	}
	type root struct {
		order   int64
		subtree int
		reason  string
	}
	for _, tc := range []struct {
		side string
		got  []Unmatched
		want []root
	}{
		{"measured", c.UnmatchedMeasured, []root{
			{3, 1, "runs merge where the predicted order 5 runs half"},
			{6, 2, "its counterpart's parent, the predicted order 2, made no child 2"},
		}},
		{"predicted", c.UnmatchedPredicted, []root{
			{5, 1, "runs half where the measured order 3 runs merge"},
			{6, 1, "its counterpart's parent, the measured order 5, made no child 0"},
		}},
	} {
		if len(tc.got) != len(tc.want) {
			t.Errorf("%s unmatched %+v, want %+v", tc.side, tc.got, tc.want)
			continue
		}
		for i, w := range tc.want {
			if g := tc.got[i]; g.Order.Order != w.order || g.Subtree != w.subtree || g.Reason != w.reason {
				t.Errorf("%s unmatched %d: order %d, subtree %d, %q; want %+v", tc.side, i, g.Order.Order, g.Subtree, g.Reason, w)
			}
		}
	}
	// Every procedure of either side, counted on each.
	names := ""
	for _, pr := range c.Procs {
		names += pr.Name + " "
	}
	if names != "half leaf merge sort tiny " {
		t.Errorf("procedures %q", names)
	}
	for _, pr := range c.Procs {
		switch pr.Name {
		case "merge":
			if pr.Measured.Orders != 1 || pr.Predicted.Orders != 0 || pr.Matched != 0 || pr.Orders != (Pair{1, 0, -1, -1}) {
				t.Errorf("merge %+v", pr)
			}
		case "leaf":
			if pr.Orders != (Pair{3, 2, -1, -1.0 / 3}) || pr.Matched != 2 {
				t.Errorf("leaf %+v", pr)
			}
		case "tiny":
			if pr.Orders != (Pair{1, 1, 0, 0}) || pr.Matched != 0 {
				t.Errorf("tiny %+v", pr)
			}
		}
	}
}

// TestCompareWithoutTree: a side whose rows cannot be matched leaves the
// orders out with a warning naming it; the procedures are still compared.
func TestCompareWithoutTree(t *testing.T) {
	for _, tc := range []struct {
		name   string
		events []stored.OrderEvent
		warn   string
	}{
		{"no rows", nil, "run 9: no per-order rows"},
		{"before schema 13", []stored.OrderEvent{ev(1, "", 0, 0, 0, 0, 8, 0), ev(2, "", 0, 0, 0, 1, 5, 0)},
			"run 9: orders 1 and 2 both have no parent"},
		{"missing parent", []stored.OrderEvent{ev(1, "sort", 0, 0, 0, 0, 8, 0), ev(3, "leaf", 2, 0, 0, 1, 5, 0)},
			"run 9: order 3's parent 2 has no per-order row"},
		{"two at one place", []stored.OrderEvent{ev(1, "sort", 0, 0, 0, 0, 8, 0), ev(2, "half", 1, 0, 0, 1, 5, 0), ev(3, "half", 1, 0, 1, 1, 5, 0)},
			"run 9: orders 2 and 3 are both child 0 of order 1"},
		{"two rows of one order", []stored.OrderEvent{ev(1, "sort", 0, 0, 0, 0, 8, 0), ev(1, "sort", 0, 0, 0, 0, 8, 0)},
			"run 9: order 1 has two per-order rows"},
		{"no main", []stored.OrderEvent{ev(2, "half", 3, 0, 0, 1, 5, 0), ev(3, "half", 2, 0, 1, 1, 5, 0)},
			"run 9: 2 of the 2 orders descend from no main order"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := predictedSort()
			p.Events = tc.events
			c, err := Compare(measuredSort(), p)
			if err != nil {
				t.Fatal(err)
			}
			if len(c.Warnings) != 1 || !strings.Contains(c.Warnings[0], tc.warn) || !strings.HasSuffix(c.Warnings[0], "its orders are not compared one by one") {
				t.Errorf("warnings %q, want one with %q", c.Warnings, tc.warn)
			}
			if len(c.Orders) != 0 || c.Summary.Matched != 0 || len(c.Procs) != 3 || c.Procs[0].Measured.Orders != 2 {
				t.Errorf("orders %+v, procedures %+v", c.Orders, c.Procs)
			}
		})
	}
	if _, err := Compare(measuredSort(), nil); err == nil {
		t.Error("a missing run compared")
	}
}

// TestCompareWarnings: other programs, rules or missing sums are said.
func TestCompareWarnings(t *testing.T) {
	p := predictedSort()
	p.Run.Program, p.Detail.Scheduler, p.Detail.Migrate, p.Procs = "merge", "locality", true, nil
	c, err := Compare(measuredSort(), p)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{`programs differ: measured "sort", predicted "merge"`,
		"placement rules differ: measured fifo, predicted locality with migration",
		"run 9 has no per-procedure sums"}
	if len(c.Warnings) != len(want) {
		t.Fatalf("warnings %q, want %q", c.Warnings, want)
	}
	for i, w := range want {
		if !strings.Contains(c.Warnings[i], w) {
			t.Errorf("warning %q, want %q", c.Warnings[i], w)
		}
	}
}

func TestWorst(t *testing.T) {
	c, err := Compare(measuredSort(), predictedSort())
	if err != nil {
		t.Fatal(err)
	}
	// |duration differences|: sort 2, halves 1 and 1, leaves 1 and 1.
	for _, tc := range []struct {
		n    int
		want []int64 // measured orders
	}{
		{0, nil}, {-1, nil}, {1, []int64{1}}, {3, []int64{1, 2, 3}}, {9, []int64{1, 2, 3, 4, 5}},
	} {
		got := c.Worst(tc.n)
		ids := make([]int64, len(got))
		for i, m := range got {
			ids[i] = m.Measured.Order
		}
		if len(ids) != len(tc.want) {
			t.Errorf("Worst(%d) = %v, want %v", tc.n, ids, tc.want)
			continue
		}
		for i := range ids {
			if ids[i] != tc.want[i] {
				t.Errorf("Worst(%d) = %v, want %v", tc.n, ids, tc.want)
				break
			}
		}
	}
}

// close reports whether two pairs agree to rounding (NaN with NaN).
func close(a, b Pair) bool {
	eq := func(x, y float64) bool { return x == y || math.Abs(x-y) <= 1e-12 || math.IsNaN(x) && math.IsNaN(y) }
	return eq(a.Measured, b.Measured) && eq(a.Predicted, b.Predicted) && eq(a.AbsErr, b.AbsErr) && eq(a.RelErr, b.RelErr)
}
