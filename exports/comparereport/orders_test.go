package comparereport

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/presage-dvm/presage/exports/internal/htmltest"
	"github.com/presage-dvm/presage/internal/comparetest"
	"github.com/presage-dvm/presage/internal/ordercompare"
	"github.com/presage-dvm/presage/schema/stored"
	"github.com/presage-dvm/presage/sim/result"
)

// ordersReport compares two orders runs of a program that sorts: the
// real run's main made a third half that the prediction lacks.
func ordersReport(t *testing.T, worst int) *Report {
	t.Helper()
	ev := func(order int64, proc string, parent int64, child, node int, start, end, wait float64) stored.OrderEvent {
		return stored.OrderEvent{Order: order, Proc: proc, Parent: parent, Child: child, Node: node, Start: start, End: end, Wait: wait}
	}
	side := func(kind result.Kind, makespan float64, events ...stored.OrderEvent) *stored.OrderSimulation {
		nodes := []result.NodeTime{{Busy: makespan}, {Busy: makespan / 2, Idle: makespan / 2}}
		run := result.NodesRun(kind, "sort", makespan, 1, nodes)
		run.ID = map[result.Kind]int64{result.Measured: 4, result.Predicted: 5}[kind]
		return &stored.OrderSimulation{Run: run, Detail: stored.OrderRun{Scheduler: "fifo", Nodes: 2, Cores: 1, Makespan: makespan},
			Events: events, Procs: stored.SumOrderProcs(events)}
	}
	m := side(result.Measured, 10,
		ev(1, "sort", 0, 0, 0, 0, 10, 6), ev(2, "half", 1, 0, 1, 1, 6, 0), ev(3, "half", 1, 1, 0, 1, 4, 0), ev(4, "half", 1, 2, 0, 4, 5, 0))
	p := side(result.Predicted, 8,
		ev(1, "sort", 0, 0, 0, 0, 8, 5), ev(2, "half", 1, 0, 1, 1, 4, 0), ev(3, "half", 1, 1, 0, 1, 3, 0))
	oc, err := ordercompare.Compare(m, p)
	if err != nil {
		t.Fatal(err)
	}
	return &Report{Comparison: comparetest.MustCompare(t, m.Run, p.Run), Orders: oc, Worst: worst}
}

func TestWriteTextOrders(t *testing.T) {
	out := string(renderReport(t, ordersReport(t, 2), WriteText))
	for _, w := range []string{
		"\nOrders, matched by their place in the tree of orders\n" +
			"  measured   run 4  fifo  2 workers  4 orders  10.000000\n" +
			"  predicted  run 5  fifo  2 nodes    3 orders   8.000000\n" +
			"  makespan error -2.000000 s (-20.0%)\n",
		"  Procedure  Orders meas  Orders pred  Matched  Mean duration meas  Mean duration pred  Rel error  Work meas  Work pred  Rel error\n" +
			"  half                 3            2        2            3.000000            2.500000     -16.7%   9.000000   5.000000     -44.4%\n" +
			"  sort                 1            1        1           10.000000            8.000000     -20.0%   4.000000   3.000000     -25.0%\n",
		"\nThe 2 orders whose durations differ most\n" +
			"  Order meas  Order pred  Procedure  Worker  Node  Start meas  Start pred  Duration meas  Duration pred  Abs error  Rel error\n" +
			"           1           1       sort       0     0    0.000000    0.000000      10.000000       8.000000  -2.000000     -20.0%\n" +
			"           2           2       half       1     1    1.000000    1.000000       5.000000       3.000000  -2.000000     -40.0%\n",
		"\nUnmatched measured orders: 1 subtree, by its root\n" +
			"  Order  Procedure  Parent  Child  Subtree     Start  Duration\n" +
			"      4       half       1      2        1  4.000000  1.000000\n" +
			"      because its counterpart's parent, the predicted order 1, made no child 2\n",
		"\nOrders: 3 matched, 1 unmatched measured, 0 unmatched predicted orders; makespan -20.0%; duration MAPE 31.1% over 3 orders\n",
	} {
		if !strings.Contains(out, w) {
			t.Errorf("no\n%s\nin\n%s", w, out)
		}
	}
	if !strings.HasPrefix(out[strings.LastIndex(strings.TrimSuffix(out, "\n"), "\n")+1:], "Summary: ") {
		t.Errorf("the intervals' summary is not the last line:\n%s", out)
	}
	if strings.Contains(out, "NaN") || strings.Contains(out, "Unmatched predicted orders") {
		t.Errorf("NaN or an empty list printed:\n%s", out)
	}
	if out := string(renderReport(t, ordersReport(t, 0), WriteText)); strings.Contains(out, "differ most") ||
		!strings.Contains(out, "1 subtree, by its root\n") {
		t.Errorf("with no worst orders asked for:\n%s", out)
	}
}

func TestWriteJSONOrders(t *testing.T) {
	var doc struct {
		Orders *struct {
			Measured struct {
				RunID     int64  `json:"run_id"`
				Scheduler string `json:"scheduler"`
				Orders    int    `json:"orders"`
			} `json:"measured"`
			Makespan struct {
				RelErr *float64 `json:"rel_error"`
			} `json:"makespan"`
			Procedures []struct {
				Proc         string `json:"proc"`
				Matched      int    `json:"matched"`
				MeanDuration struct {
					Measured, Predicted *float64
				} `json:"mean_duration"`
			} `json:"procedures"`
			Worst []struct {
				Measured, Predicted struct {
					Order int64  `json:"order"`
					Proc  string `json:"proc"`
				}
				Duration struct {
					AbsErr *float64 `json:"abs_error"`
				} `json:"duration"`
			} `json:"worst"`
			UnmatchedMeasured []struct {
				Order   int64  `json:"order"`
				Subtree int    `json:"subtree"`
				Reason  string `json:"unmatched_reason"`
			} `json:"unmatched_measured"`
			UnmatchedPredicted []any `json:"unmatched_predicted"`
			Summary            struct {
				Matched           int      `json:"matched"`
				UnmatchedMeasured int      `json:"unmatched_measured"`
				DurationMAPE      *float64 `json:"duration_mape"`
			} `json:"summary"`
		} `json:"orders"`
	}
	if err := json.Unmarshal(renderReport(t, ordersReport(t, 1), WriteJSON), &doc); err != nil {
		t.Fatal(err)
	}
	o := doc.Orders
	if o == nil {
		t.Fatal("no orders in the document")
	}
	if o.Measured.RunID != 4 || o.Measured.Scheduler != "fifo" || o.Measured.Orders != 4 || o.Makespan.RelErr == nil || *o.Makespan.RelErr != -0.2 {
		t.Errorf("measured %+v, makespan %+v", o.Measured, o.Makespan)
	}
	if len(o.Procedures) != 2 || o.Procedures[0].Proc != "half" || o.Procedures[0].Matched != 2 || *o.Procedures[0].MeanDuration.Predicted != 2.5 {
		t.Errorf("procedures %+v", o.Procedures)
	}
	if len(o.Worst) != 1 || o.Worst[0].Measured.Order != 1 || o.Worst[0].Predicted.Proc != "sort" || *o.Worst[0].Duration.AbsErr != -2 {
		t.Errorf("worst %+v", o.Worst)
	}
	if len(o.UnmatchedMeasured) != 1 || o.UnmatchedMeasured[0].Order != 4 || o.UnmatchedMeasured[0].Subtree != 1 ||
		!strings.Contains(o.UnmatchedMeasured[0].Reason, "made no child 2") || o.UnmatchedPredicted == nil || len(o.UnmatchedPredicted) != 0 {
		t.Errorf("unmatched %+v, %+v", o.UnmatchedMeasured, o.UnmatchedPredicted)
	}
	if o.Summary.Matched != 3 || o.Summary.UnmatchedMeasured != 1 || o.Summary.DurationMAPE == nil {
		t.Errorf("summary %+v", o.Summary)
	}
	// Runs that are not orders runs have no orders member.
	r := ordersReport(t, 1)
	r.Orders = nil
	if b := renderReport(t, r, WriteJSON); strings.Contains(string(b), `"orders": {`) {
		t.Errorf("orders written for runs without:\n%s", b)
	}
}

func TestWriteHTMLOrders(t *testing.T) {
	doc := htmltest.Parse(t, renderReport(t, ordersReport(t, 2), WriteHTML))
	sec := doc.First(t, "the orders section", htmltest.WithID("orders"))
	var titles []string
	for _, h := range sec.All(htmltest.Named("h3")) {
		titles = append(titles, h.Text())
	}
	if want := "Runs|Per procedure|The 2 orders whose durations differ most|Unmatched measured orders: 1 subtree, by its root"; strings.Join(titles, "|") != want {
		t.Errorf("tables %q, want %q", titles, want)
	}
	tables := sec.All(htmltest.Named("table"))
	if len(tables) != 4 {
		t.Fatalf("%d tables", len(tables))
	}
	procs := tables[1].All(htmltest.Named("tr"))
	if len(procs) != 3 || rowText(procs[1]) != "half 3 2 2 3.000000 2.500000 -16.7% 9.000000 5.000000 -44.4%" {
		t.Errorf("procedure rows %d, first %q", len(procs), rowText(procs[1]))
	}
	if bars := procs[1].All(htmltest.WithClass("pair"))[0].All(htmltest.Named("span")); len(bars) != 4 ||
		bars[1].Attr["style"] != "width: 100.0%" || bars[3].Attr["style"] != "width: 83.3%" {
		t.Errorf("half's bars %v", bars)
	}
	if cell := procs[1].All(htmltest.Named("td"))[6]; !htmltest.WithClass("fair")(cell) {
		t.Errorf("a 16.7%% error is not graded fair: %v", cell.Attr)
	}
	unm := tables[3].All(htmltest.Named("tr"))
	if len(unm) != 3 || rowText(unm[2]) != "because its counterpart's parent, the predicted order 1, made no child 2" {
		t.Errorf("unmatched rows %d: %q", len(unm), rowText(unm[len(unm)-1]))
	}
	if !strings.Contains(sec.Text(), "3 matched, 1 unmatched measured, 0 unmatched predicted orders") {
		t.Errorf("no summary in %q", sec.Text())
	}
	if n := len(htmltest.Parse(t, render(t, ordersReport(t, 2).Comparison, WriteHTML)).All(htmltest.WithID("orders"))); n != 0 {
		t.Errorf("an orders section for runs without")
	}
}
