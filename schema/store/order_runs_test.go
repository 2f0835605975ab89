package store_test

import (
	"context"
	"errors"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/presage-dvm/presage/internal/storetest"
	"github.com/presage-dvm/presage/schema/store"
	"github.com/presage-dvm/presage/schema/stored"
	"github.com/presage-dvm/presage/sim/ordertrace"
	"github.com/presage-dvm/presage/sim/result"
)

// orderRows are the rows of a run of three orders on two nodes: main
// (suspended once) made two tasks.
func orderRows(kind result.Kind) *stored.OrderSimulation {
	nodes := []stored.OrderNode{{Node: 0, Orders: 2, Busy: 1.5, Waiting: 0.5}, {Node: 1, Orders: 1, Busy: 1, Idle: 1}}
	times := make([]result.NodeTime, len(nodes))
	for i, n := range nodes {
		times[i] = result.NodeTime{Busy: n.Busy, Idle: n.Idle, Waiting: n.Waiting}
	}
	return &stored.OrderSimulation{
		Run:   result.NodesRun(kind, "tasks", 2, 1, times),
		Nodes: nodes,
		Path: []stored.PathStep{{Step: 0, Order: 1, Proc: "main", Start: 0, End: 0.5, Reason: "start"},
			{Step: 1, Order: 3, Proc: "task", Node: 0, Start: 0.5, End: 1.5, Reason: "child"}},
		Events: []stored.OrderEvent{
			{Order: 1, Proc: "main", Node: 0, Start: 0, End: 2, Wait: 1},
			{Order: 2, Proc: "task", Parent: 1, Child: 0, Node: 1, Ready: 0.25, Start: 0.25, End: 1.25},
			{Order: 3, Proc: "task", Parent: 1, Child: 1, Node: 0, Ready: 0.5, Start: 0.5, End: 1.5},
		},
		Stretches: []stored.OrderStretch{
			{Order: 1, Seq: 0, Node: 0, Start: 0, End: 0.5}, {Order: 1, Seq: 1, Node: 0, Start: 1.5, End: 2},
			{Order: 2, Seq: 0, Node: 1, Start: 0.25, End: 1.25},
			{Order: 3, Seq: 0, Node: 0, Start: 0.5, End: 1.5},
		},
		Procs: []stored.OrderProc{{Proc: "main", Orders: 1, Work: 1, PathTime: 0.5, MeanDuration: 2},
			{Proc: "task", Orders: 2, Work: 2, PathTime: 1, MeanDuration: 1}},
	}
}

// mainOrderTrace stores an order trace of its main order alone, for a
// simulation to refer to.
func mainOrderTrace(t *testing.T, st *store.Store) int64 {
	t.Helper()
	info, err := st.SaveOrderTrace(context.Background(), store.OrderTraceInfo{Name: "tasks", Path: "tasks.jsonl", SHA256: "ab"},
		func(w *store.OrderWriter) (store.OrderTraceInfo, error) {
			err := w.Add(&ordertrace.Order{ID: 1, Proc: "main", Duration: 1, Results: []ordertrace.Result{{At: 1}}})
			return store.OrderTraceInfo{Program: "tasks", Unit: "s", Orders: 1}, err
		})
	if err != nil {
		t.Fatal(err)
	}
	return info.ID
}

// TestOrderTraceDigestKnownLast: a trace whose SHA-256 comes only with
// its orders (ingest computes it beside them) is stored under it, and
// when a trace of that SHA-256 is stored already, that trace comes back,
// Existing, and nothing more is written.
func TestOrderTraceDigestKnownLast(t *testing.T) {
	ctx := context.Background()
	st := storetest.Open(t)
	save := func(path string) (store.OrderTraceInfo, error) {
		return st.SaveOrderTrace(ctx, store.OrderTraceInfo{Name: "tasks", Path: path},
			func(w *store.OrderWriter) (store.OrderTraceInfo, error) {
				err := w.Add(&ordertrace.Order{ID: 1, Proc: "main", Duration: 1, Results: []ordertrace.Result{{At: 1}}})
				return store.OrderTraceInfo{Program: "tasks", Unit: "s", Orders: 1, SHA256: "cd"}, err
			})
	}
	first, err := save("tasks.jsonl")
	if err != nil || first.Existing || first.SHA256 != "cd" {
		t.Fatalf("first: %+v, %v", first, err)
	}
	again, err := save("copy.jsonl")
	if err != nil || !again.Existing || again.ID != first.ID || again.Path != "tasks.jsonl" {
		t.Errorf("same SHA-256: %+v, %v; want trace %d, Existing", again, err, first.ID)
	}
	for _, table := range []string{"order_traces", "order_trace_chunks"} {
		if n := storetest.Count(t, st, table); n != 1 {
			t.Errorf("%d rows of %s, want 1", n, table)
		}
	}
}

// TestOrderRowsRoundTrip: a simulation's and a measured run's order rows
// (procedures, tree places, stretches, per-procedure sums, the path's
// procedures) read back as stored, the stretches of the events kept only;
// a measured run's detail comes from its file.
func TestOrderRowsRoundTrip(t *testing.T) {
	ctx := context.Background()
	st := storetest.Open(t)
	sim := orderRows(result.Predicted)
	sim.Detail = stored.OrderRun{TraceID: mainOrderTrace(t, st), Scheduler: "locality", Nodes: 2, Cores: 1, Power: 1, Makespan: 2, Work: 3}
	if saved, err := st.SaveOrderSimulation(ctx, sim, -1, store.SaveOptions{}); err != nil || !saved {
		t.Fatalf("save simulation: %v, %v", saved, err)
	}
	meas := orderRows(result.Measured)
	meas.Path = nil
	info, err := st.SaveOrderMeasurement(ctx, store.OrderMeasurementInfo{Name: "tasks", Path: "tasks.run.jsonl", SHA256: "cd",
		Program: "tasks", Machine: "host/amd64", Workers: 2, Scheduler: "work-stealing", Migrate: true, Orders: 3, Makespan: 2,
		Started: "2026-11-24T11:00:00Z"}, meas)
	if err != nil {
		t.Fatal(err)
	}
	if again, found, err := st.OrderMeasurementBySHA(ctx, "cd"); err != nil || !found || again.Scheduler != "work-stealing" || again.RunID != info.RunID {
		t.Errorf("measured run looked up: %+v, %v, %v", again, found, err)
	}
	for _, tc := range []struct {
		name   string
		want   *stored.OrderSimulation
		detail stored.OrderRun
	}{
		{"simulated", sim, sim.Detail},
		{"measured", meas, stored.OrderRun{Scheduler: "work-stealing", Migrate: true, Nodes: 2, Cores: 1, Power: 1, Makespan: 2,
			Work: 2.5, Speedup: 1.25}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := st.OrderSimulation(ctx, tc.want.Run.ID, -1)
			if err != nil {
				t.Fatal(err)
			}
			if got.Detail != tc.detail {
				t.Errorf("detail %+v, want %+v", got.Detail, tc.detail)
			}
			for _, c := range []struct {
				what      string
				got, want any
			}{
				{"nodes", got.Nodes, tc.want.Nodes}, {"path", got.Path, tc.want.Path}, {"events", got.Events, tc.want.Events},
				{"stretches", got.Stretches, tc.want.Stretches}, {"procs", got.Procs, tc.want.Procs},
			} {
				if reflect.ValueOf(c.want).Len() == 0 && reflect.ValueOf(c.got).Len() == 0 {
					continue
				}
				if !reflect.DeepEqual(c.got, c.want) {
					t.Errorf("%s\n%+v\nwant\n%+v", c.what, c.got, c.want)
				}
			}
			// The earliest started order only, and its stretches.
			one, err := st.OrderSimulation(ctx, tc.want.Run.ID, 1)
			if err != nil {
				t.Fatal(err)
			}
			if len(one.Events) != 1 || one.Events[0].Order != 1 || len(one.Stretches) != 2 || len(one.Procs) != 2 {
				t.Errorf("one order kept: events %+v, stretches %+v, procs %+v", one.Events, one.Stretches, one.Procs)
			}
		})
	}
	// presage list measured shows the rule the run followed.
	var cols []string
	var vals []any
	if _, err := st.List(ctx, "measured", 0, func(c []string) error { cols = c; return nil },
		func(v []any) error { vals = v; return nil }); err != nil {
		t.Fatal(err)
	}
	shown := map[string]any{}
	for i, c := range cols {
		shown[c] = vals[i]
	}
	if shown["scheduler"] != "work-stealing" || shown["migrate"] != int64(1) {
		t.Errorf("list measured: %v", shown)
	}
	plain := &result.Run{Kind: result.Predicted, Program: "p", Config: result.Config{Grid: []int{1}},
		Intervals: []*result.Interval{{ID: 1, Type: result.Main, Count: 1, Values: result.Values{}}}, ReportRoot: 1}
	storetest.Save(t, st, plain)
	if _, err := st.OrderSimulation(ctx, plain.ID, -1); err == nil || !strings.Contains(err.Error(), "is not an orders run") {
		t.Errorf("a DVM run read as an orders run: %v", err)
	}
	for id, want := range map[int64]bool{sim.Run.ID: true, info.RunID: true, plain.ID: false} {
		if is, err := st.IsOrdersRun(ctx, id); err != nil || is != want {
			t.Errorf("run %d is an orders run: %v, %v; want %v", id, is, err, want)
		}
	}
	if _, err := st.IsOrdersRun(ctx, 99); !errors.Is(err, store.ErrNoRun) {
		t.Errorf("run 99: %v, want ErrNoRun", err)
	}
}

// TestMergeCopiesOrderRows: merging a store with a measured orders run
// copies its order rows, new tables included, once.
func TestMergeCopiesOrderRows(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	src, err := store.Open(filepath.Join(dir, "src.db"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := src.SaveOrderMeasurement(ctx, store.OrderMeasurementInfo{Name: "tasks", Path: "tasks.run.jsonl", SHA256: "cd",
		Program: "tasks", Machine: "m", Workers: 2, Scheduler: "fifo", Orders: 3, Makespan: 2, Started: "2026-11-24T11:00:00Z"},
		orderRows(result.Measured)); err != nil {
		t.Fatal(err)
	}
	src.Close()
	dst := storetest.Open(t)
	for range 2 {
		if _, err := dst.Merge(ctx, []string{filepath.Join(dir, "src.db")}); err != nil {
			t.Fatal(err)
		}
	}
	for table, want := range map[string]int{"order_measurements": 1, "runs": 1, "order_events": 3, "order_stretches": 4,
		"order_procs": 2, "order_nodes": 2} {
		if n := storetest.Count(t, dst, table); n != want {
			t.Errorf("%d rows in %s after merging twice, want %d", n, table, want)
		}
	}
}
