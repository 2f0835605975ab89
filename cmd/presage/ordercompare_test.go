package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/presage-dvm/presage/sim/ordertrace"
)

// sortTrace writes the recorded trace of a sort: main makes two halves
// and waits for them, the first half makes two leaves.
func sortTrace(t *testing.T, path string) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	w, err := ordertrace.NewWriter(f, ordertrace.Header{Program: "sort", Unit: "s", Orders: 5})
	if err != nil {
		t.Fatal(err)
	}
	order := func(id, parent int64, proc string, made, dur float64, requests ...int64) *ordertrace.Order {
		o := &ordertrace.Order{ID: id, Parent: parent, Proc: proc, MadeAt: made, ArgBytes: 8, Duration: dur,
			Segments: []ordertrace.Segment{{Start: 0, Dur: dur}}, Results: []ordertrace.Result{{At: dur, Bytes: 8}}}
		for _, r := range requests {
			o.Requests = append(o.Requests, ordertrace.Request{Order: r, At: dur / 2})
		}
		return o
	}
	for _, o := range []*ordertrace.Order{
		order(1, 0, "sort", 0, 0.004, 2, 3), order(2, 1, "half", 0.0005, 0.003, 4, 5), order(3, 1, "half", 0.001, 0.001),
		order(4, 2, "leaf", 0.0005, 0.002), order(5, 2, "leaf", 0.001, 0.003),
	} {
		if err := w.Write(o); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
}

// sortRun is a real run of the same sort on 2 workers, recorded order by
// order: the run numbered the first half's first leaf before the second
// half. extra adds a leaf under the second half, as a run of another
// size would.
func sortRun(extra bool) string {
	head := `{"format":"presage-orders-run","version":2,"program":"sort","machine":"ci","scheduler":"fifo","migrate":false,"started":"2026-11-24T11:00:00Z","orders":5,"makespan":0.01,"workers":2}
{"worker":0,"orders":3,"busy":0.007,"waiting":0.003,"idle":0}
{"worker":1,"orders":2,"busy":0.0065,"waiting":0,"idle":0.0035}
`
	orders := `{"order":1,"parent":0,"child":0,"proc":"sort","made":0,"runs":[[0,0,0.001],[0,0.008,0.01]]}
{"order":2,"parent":1,"child":0,"proc":"half","made":0.0005,"runs":[[1,0.0005,0.002],[1,0.006,0.007]]}
{"order":3,"parent":2,"child":0,"proc":"leaf","made":0.001,"runs":[[0,0.001,0.004]]}
{"order":4,"parent":1,"child":1,"proc":"half","made":0.001,"runs":[[0,0.004,0.005]]}
{"order":5,"parent":2,"child":1,"proc":"leaf","made":0.0015,"runs":[[1,0.002,0.006]]}
`
	if extra {
		head = strings.NewReplacer(`"orders":5`, `"orders":6`, `"worker":1,"orders":2`, `"worker":1,"orders":3`).Replace(head)
		orders += `{"order":6,"parent":4,"child":0,"proc":"leaf","made":0.0045,"runs":[[1,0.0045,0.0046]]}` + "\n"
	}
	return head + orders
}

// TestCompareOrders: a real run recorded order by order, stored, is
// compared with the simulation of its program's trace order by order and
// per procedure, in every format; a real run with an order more has it
// unmatched.
func TestCompareOrders(t *testing.T) {
	dir := t.TempDir()
	sortTrace(t, filepath.Join(dir, "sort.jsonl"))
	for name, text := range map[string]string{"run.jsonl": sortRun(false), "bigger.jsonl": sortRun(true)} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	mustSucceed(t, presage(t, dir, "ingest", "orders", filepath.Join(dir, "sort.jsonl")))
	mustSucceed(t, presage(t, dir, "orders", "simulate", "--orders", "sort", "--nodes", "2", "--pin")) // run 1, pinned as the real run
	mustSucceed(t, presage(t, dir, "ingest", "orders-run", filepath.Join(dir, "run.jsonl")))           // run 2
	r := mustSucceed(t, presage(t, dir, "ingest", "orders-run", filepath.Join(dir, "bigger.jsonl")))   // run 3
	if !strings.Contains(r.stderr, "sort on 2 workers of ci, fifo, 6 orders in 0.01 s (run 3)") {
		t.Errorf("ingest said %q", r.stderr)
	}

	r = mustSucceed(t, presage(t, dir, "compare", "--measured", "2", "--predicted", "1", "--worst", "3"))
	for _, want := range []string{
		"Orders, matched by their place in the tree of orders\n  measured   run 2  fifo  2 workers  5 orders  0.010000\n",
		"  predicted  run 1  fifo  2 nodes    5 orders",
		"\nPer procedure (", "\n  half                 2            2        2  ", "\n  leaf                 2            2        2  ",
		"\n  sort                 1            1        1  ",
		"\nThe 3 orders whose durations differ most\n",
		"\nOrders: 5 matched, 0 unmatched measured, 0 unmatched predicted orders; makespan ",
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("compare lacks %q:\n%s", want, r.stdout)
		}
	}
	if strings.Contains(r.stderr, "warning") {
		t.Errorf("compare warned: %s", r.stderr)
	}
	r = mustSucceed(t, presage(t, dir, "compare", "--measured", "3", "--predicted", "1"))
	for _, want := range []string{
		"\nUnmatched measured orders: 1 subtree, by its root\n",
		"      because its counterpart's parent, the predicted order 3, made no child 0\n",
		"\nOrders: 5 matched, 1 unmatched measured, 0 unmatched predicted orders; ",
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("compare of the bigger run lacks %q:\n%s", want, r.stdout)
		}
	}
	var doc struct {
		Orders struct {
			Procedures []struct{ Proc string }
			Worst      []any
			Summary    struct{ Matched int }
		}
	}
	r = mustSucceed(t, presage(t, dir, "compare", "--measured", "2", "--predicted", "1", "--format", "json", "--worst", "2"))
	if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Orders.Summary.Matched != 5 || len(doc.Orders.Procedures) != 3 || len(doc.Orders.Worst) != 2 {
		t.Errorf("json orders %+v", doc.Orders)
	}
	html := filepath.Join(dir, "compare.html")
	mustSucceed(t, presage(t, dir, "compare", "--measured", "2", "--predicted", "1", "--format", "html", "--out", html))
	if page, err := os.ReadFile(html); err != nil || !strings.Contains(string(page), `id="orders"`) {
		t.Errorf("the html page has no orders section (%v)", err)
	}
	if r := presage(t, dir, "compare", "--measured", "2", "--predicted", "1", "--worst=-1"); r.code == 0 || !strings.Contains(r.stderr, "--worst -1: expected an integer ≥ 0") {
		t.Errorf("--worst -1: exit %d, %q", r.code, r.stderr)
	}
	r = mustSucceed(t, presage(t, dir, "list", "measured"))
	if got := strings.Join(strings.Fields(r.stdout), " "); !strings.Contains(got, "workers scheduler migrate orders") ||
		!strings.Contains(got, "2 fifo 0 5") {
		t.Errorf("list measured:\n%s", r.stdout)
	}
}

// TestExportOrdersTimeline: the timeline of an orders run, simulated or
// measured, is drawn from its stored orders: a thread per node or
// worker, a slice per stretch named by its procedure; a run without
// per-order rows has none.
func TestExportOrdersTimeline(t *testing.T) {
	dir := t.TempDir()
	sortTrace(t, filepath.Join(dir, "sort.jsonl"))
	if err := os.WriteFile(filepath.Join(dir, "run.jsonl"), []byte(sortRun(false)), 0o644); err != nil {
		t.Fatal(err)
	}
	mustSucceed(t, presage(t, dir, "ingest", "orders", filepath.Join(dir, "sort.jsonl")))
	mustSucceed(t, presage(t, dir, "orders", "simulate", "--orders", "sort", "--nodes", "2"))                      // run 1
	mustSucceed(t, presage(t, dir, "ingest", "orders-run", filepath.Join(dir, "run.jsonl")))                       // run 2
	mustSucceed(t, presage(t, dir, "orders", "simulate", "--orders", "sort", "--nodes", "2", "--max-events", "1")) // run 3
	for _, tc := range []struct {
		run, thread string
		slices      int // stretches
	}{
		{"2", "worker 1", 7},
		{"1", "node 1", 0}, // as many as the simulation's stretches: at least one per order
	} {
		js := filepath.Join(dir, "run"+tc.run+".json")
		r := mustSucceed(t, presage(t, dir, "export", "timeline", "--run", tc.run, "--format", "perfetto", "--out", js))
		if !strings.Contains(r.stderr, "(5 orders, ") {
			t.Errorf("run %s: export said %q", tc.run, r.stderr)
		}
		var trace struct {
			TraceEvents []struct {
				Ph, Name string
				Args     map[string]any
			} `json:"traceEvents"`
		}
		b, err := os.ReadFile(js)
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(b, &trace); err != nil {
			t.Fatalf("run %s: perfetto JSON: %v", tc.run, err)
		}
		threads, slices, procs := map[string]bool{}, 0, map[string]bool{}
		for _, e := range trace.TraceEvents {
			switch {
			case e.Ph == "M" && e.Name == "thread_name":
				threads[e.Args["name"].(string)] = true
			case e.Ph == "X":
				slices++
				procs[e.Name] = true
			}
		}
		if !threads[tc.thread] || (tc.slices > 0 && slices != tc.slices) || slices < 5 || len(procs) != 3 {
			t.Errorf("run %s: threads %v, %d slices of %v; want %q, %d slices of sort, half, leaf", tc.run, threads, slices, procs, tc.thread, tc.slices)
		}
		prv := filepath.Join(dir, "run"+tc.run+".prv")
		mustSucceed(t, presage(t, dir, "export", "timeline", "--run", tc.run, "--format", "paraver", "--out", prv))
		for _, ext := range []string{".prv", ".pcf", ".row"} {
			if _, err := os.Stat(strings.TrimSuffix(prv, ".prv") + ext); err != nil {
				t.Errorf("run %s: no %s: %v", tc.run, ext, err)
			}
		}
	}
	if r := presage(t, dir, "export", "timeline", "--run", "3", "--format", "perfetto", "--out", filepath.Join(dir, "x.json")); r.code == 0 ||
		!strings.Contains(r.stderr, "run 3 has no per-order rows") {
		t.Errorf("a run without per-order rows: exit %d, %q", r.code, r.stderr)
	}
}
