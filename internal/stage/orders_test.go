package stage_test

import (
	"bytes"
	"context"
	"errors"
	"math"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/presage-dvm/presage/ingest"
	"github.com/presage-dvm/presage/ingest/ordergen"
	"github.com/presage-dvm/presage/internal/stage"
	"github.com/presage-dvm/presage/internal/sweeptest"
	"github.com/presage-dvm/presage/schema/store"
	"github.com/presage-dvm/presage/schema/stored"
	"github.com/presage-dvm/presage/sim/ordersim"
	"github.com/presage-dvm/presage/sim/result"
)

var dacOptions = ordergen.Options{Shape: ordergen.DivideAndConquer, Depth: 7, Leaf: 1e-3, Split: 1e-4, Combine: 2e-4,
	Jitter: 0.3, Seed: 3, ArgBytes: 256, ResultBytes: 256}

// ordersStore is a store with a generated divide-and-conquer trace "dac".
func ordersStore(t *testing.T) (*store.Store, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "dac.jsonl")
	var text bytes.Buffer
	if err := ordergen.Generate(&text, dacOptions); err != nil {
		t.Fatal(err)
	}
	// The bytes of the version 1 file of earlier builds (the same lines:
	// none needs a continuation), whose sweeps must resume.
	v1 := bytes.Replace(text.Bytes(), []byte(`"version":2`), []byte(`"version":1`), 1)
	if err := os.WriteFile(path, v1, 0o644); err != nil {
		t.Fatal(err)
	}
	st, dbPath := sweeptest.Store(t, "orders.db", nil, nil)
	if _, err := ingest.OrderTrace(context.Background(), st, path); err != nil {
		t.Fatal(err)
	}
	return st, dbPath
}

// TestSimulateOrdersStored: one node without latency runs the whole work;
// the stored run carries the cluster's time as characteristics, split
// exactly into productive and lost parts, per node too.
func TestSimulateOrdersStored(t *testing.T) {
	st, _ := ordersStore(t)
	ctx := context.Background()
	one, err := stage.SimulateOrders(ctx, st, stage.OrdersRequest{Trace: "dac", Cluster: ordersim.Cluster{Nodes: 1}, MaxEvents: 1e6})
	if err != nil {
		t.Fatal(err)
	}
	if d := one.Detail; math.Abs(d.Makespan-d.Work) > 1e-9*d.Work || len(one.Events) != int(dacOptions.Count()) {
		t.Errorf("1 node: makespan %g, work %g, %d order rows", d.Makespan, d.Work, len(one.Events))
	}
	four, err := stage.SimulateOrders(ctx, st, stage.OrdersRequest{Trace: "dac",
		Cluster: ordersim.Cluster{Nodes: 4, Latency: 1e-5, Bandwidth: 1e8}, MaxEvents: 10})
	if err != nil {
		t.Fatal(err)
	}
	got, err := st.OrderSimulation(ctx, four.Run.ID, 100)
	if err != nil {
		t.Fatal(err)
	}
	d := got.Detail
	if d.Nodes != 4 || len(got.Nodes) != 4 || len(got.Events) != 0 || len(got.Path) == 0 || d.Speedup <= 1 || d.Speedup > 4 {
		t.Fatalf("4 nodes: %+v, %d node rows, %d order rows, %d path steps", d, len(got.Nodes), len(got.Events), len(got.Path))
	}
	if d.Speedup < d.SpeedupLo*0.5 || d.Speedup > d.SpeedupHi*(1+1e-9) {
		t.Errorf("speedup %g outside the work/span range %g..%g", d.Speedup, d.SpeedupLo, d.SpeedupHi)
	}
	v := got.Run.Intervals[0].Values
	lost := v[result.InsuffParallelism] + v[result.Communication] + v[result.Synchronization]
	if math.Abs(v[result.TotalTime]-4*d.Makespan) > 1e-9 || math.Abs(v[result.LostTime]-lost) > 1e-9*v[result.TotalTime] ||
		math.Abs(v[result.ProductiveTime]+v[result.LostTime]-v[result.TotalTime]) > 1e-9*v[result.TotalTime] {
		t.Errorf("characteristics do not add up: %v", v)
	}
	var busy float64
	for _, p := range got.Run.Intervals[0].Procs {
		busy += p.Values[result.ProductiveTime]
	}
	if math.Abs(busy-v[result.ProductiveTime]) > 1e-9*busy {
		t.Errorf("nodes' productive time %g, the run's %g", busy, v[result.ProductiveTime])
	}
}

// TestSimulateOrdersByProcedure: a simulation names every order's
// procedure, parent and place among its siblings, keeps the stretches of
// the orders it keeps, by order then time, adding up to the nodes' busy
// time, names the critical path's procedures, and sums every order by
// procedure, also when it keeps no order's rows.
func TestSimulateOrdersByProcedure(t *testing.T) {
	st, _ := ordersStore(t)
	ctx := context.Background()
	n := dacOptions.Count()
	for _, tc := range []struct {
		name      string
		maxEvents int64
	}{{"every order kept", n}, {"none kept", n - 1}} {
		t.Run(tc.name, func(t *testing.T) {
			sim, err := stage.SimulateOrders(ctx, st, stage.OrdersRequest{Trace: "dac",
				Cluster: ordersim.Cluster{Nodes: 3, Latency: 1e-5, Bandwidth: 1e8}, MaxEvents: tc.maxEvents})
			if err != nil {
				t.Fatal(err)
			}
			var busy float64
			for _, nd := range sim.Nodes {
				busy += nd.Busy
			}
			// The generated divide and conquer runs one procedure.
			if len(sim.Procs) != 1 || sim.Procs[0].Proc != "solve" || sim.Procs[0].Orders != n ||
				math.Abs(sim.Procs[0].Work-busy) > 1e-9*busy || sim.Procs[0].PathTime <= 0 || sim.Procs[0].PathTime > sim.Detail.Makespan {
				t.Errorf("procs %+v: want solve, %d orders, work %g", sim.Procs, n, busy)
			}
			for _, p := range sim.Path {
				if p.Proc != "solve" {
					t.Fatalf("path step %+v: no procedure", p)
				}
			}
			if tc.maxEvents < n {
				if len(sim.Events) != 0 || len(sim.Stretches) != 0 {
					t.Errorf("%d events, %d stretches beyond --max-events", len(sim.Events), len(sim.Stretches))
				}
				return
			}
			kids := map[int64]int{}
			slices.SortFunc(sim.Events, func(a, b stored.OrderEvent) int { return int(a.Order - b.Order) })
			for _, e := range sim.Events {
				if e.Proc != "solve" || e.Order > 1 && (e.Parent != e.Order/2 || e.Child != kids[e.Parent]) {
					t.Fatalf("event %+v: want solve, parent %d, child %d", e, e.Order/2, kids[e.Order/2])
				}
				kids[e.Parent]++
			}
			ran := 0.0
			for i, s := range sim.Stretches {
				if i > 0 {
					if p := sim.Stretches[i-1]; p.Order > s.Order || p.Order == s.Order && (p.Seq+1 != s.Seq || p.End > s.Start) {
						t.Fatalf("stretches %+v then %+v: not by order then time", p, s)
					}
				}
				ran += s.End - s.Start
			}
			if len(sim.Stretches) <= len(sim.Events) || math.Abs(ran-busy) > 1e-9*busy {
				t.Errorf("%d stretches of %d orders run for %g, the nodes were busy %g", len(sim.Stretches), len(sim.Events), ran, busy)
			}
		})
	}
}

// TestOrdersSweepResumesAndMerges: a cancelled sweep resumed, and two
// shards merged, hold exactly the rows of an uninterrupted sweep; the
// smallest cluster meeting a deadline is the first whose time meets it.
func TestOrdersSweepResumesAndMerges(t *testing.T) {
	ctx := context.Background()
	// Pinned, as every sweep was before resuming anywhere became the
	// default: the definition hash below is of those sweeps.
	req := stage.OrdersSweepRequest{OrdersRequest: stage.OrdersRequest{Trace: "dac", Options: ordersim.Options{Pin: true},
		Cluster: ordersim.Cluster{Latency: 1e-5, Bandwidth: 1e8}}, Nodes: []int{1, 2, 3, 4, 8, 16}}

	full, _ := ordersStore(t)
	all, err := stage.OrdersSweep(ctx, full, req, stage.SweepOptions{Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	if all.Ran != 6 || len(all.Runs) != 6 {
		t.Fatalf("sweep: %+v", all)
	}
	deadline := (all.Runs[1].Makespan + all.Runs[2].Makespan) / 2
	req.Deadline = deadline
	again, err := stage.OrdersSweep(ctx, full, req, stage.SweepOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if s := again.Smallest; again.Ran != 0 || s == nil || s.Size != 3 || s.Run == nil || s.Run.Nodes != 3 || len(s.Simulated) != 0 {
		t.Errorf("deadline %g: %+v, want 3 nodes, listed, and nothing run again", deadline, again.Smallest)
	}
	req.Deadline = 0
	hash := sweepHash(t, full)
	// The hash of this sweep's definition before the sweeps shared their
	// machinery: stores made then resume and merge under it.
	if hash != "d483d882d20e9b0cec98021a3491bf58118514dab3731bfa8b544c69634f2f27" {
		t.Errorf("definition hash %s: the sweeps of earlier builds would not resume", hash)
	}
	want := sweeptest.Fingerprint(t, full, hash)

	cancelled, _ := ordersStore(t)
	stop, cancel := context.WithCancel(ctx)
	_, err = stage.OrdersSweep(stop, cancelled, req, stage.SweepOptions{Workers: 1, Progress: func(p stage.Progress) {
		if p.Done == 2 {
			cancel()
		}
	}})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled sweep: %v", err)
	}
	if _, err := stage.OrdersSweep(ctx, cancelled, req, stage.SweepOptions{}); err != nil {
		t.Fatal(err)
	}
	if d := sweeptest.Diff(sweeptest.Fingerprint(t, cancelled, hash), want); d != "" {
		t.Errorf("cancelled and resumed vs uninterrupted: %s", d)
	}

	var shards []string
	for i := range 2 {
		st, path := ordersStore(t)
		if _, err := stage.OrdersSweep(ctx, st, req, stage.SweepOptions{Shard: i, Shards: 2}); err != nil {
			t.Fatal(err)
		}
		st.Close()
		shards = append(shards, path)
	}
	merged, _ := sweeptest.Store(t, "merged.db", nil, nil)
	if _, err := merged.Merge(ctx, shards); err != nil {
		t.Fatal(err)
	}
	if d := sweeptest.Diff(sweeptest.Fingerprint(t, merged, hash), want); d != "" {
		t.Errorf("shards merged vs unsharded: %s", d)
	}
	if len(want) < 6*20 {
		t.Errorf("fingerprint of %d lines: too few to compare anything", len(want))
	}
}

// TestOrdersDeadlineBeyondTheList: the smallest cluster meeting a
// deadline is searched in the whole range of the node counts, and a size
// the list lacks is simulated and stored in the sweep (at position
// len(Nodes)+n−1), so that asking again simulates nothing; the answer is
// that of the run times of every size.
func TestOrdersDeadlineBeyondTheList(t *testing.T) {
	ctx := context.Background()
	cl := ordersim.Cluster{Latency: 1e-5, Bandwidth: 1e8}
	every, _ := ordersStore(t)
	all, err := stage.OrdersSweep(ctx, every, stage.OrdersSweepRequest{OrdersRequest: stage.OrdersRequest{Trace: "dac", Cluster: cl},
		Nodes: []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}}, stage.SweepOptions{})
	if err != nil {
		t.Fatal(err)
	}
	times := map[int]float64{}
	for _, r := range all.Runs {
		times[r.Nodes] = r.Makespan
	}
	st, _ := ordersStore(t)
	req := stage.OrdersSweepRequest{OrdersRequest: stage.OrdersRequest{Trace: "dac", Cluster: cl}, Nodes: []int{1, 4, 16}}
	for _, n := range []int{3, 2, 7, 11} { // unlisted answers
		req.Deadline = (times[n] + times[n-1]) / 2
		if !(times[n] < req.Deadline && req.Deadline < times[n-1]) {
			t.Fatalf("run times %v: no deadline between %d and %d nodes", times, n-1, n)
		}
		sum, err := stage.OrdersSweep(ctx, st, req, stage.SweepOptions{})
		if err != nil {
			t.Fatal(err)
		}
		s := sum.Smallest
		if s == nil || s.Size != n || s.Run == nil || s.Run.Nodes != n || s.Run.Makespan != times[n] || s.Lo != 1 || s.Hi != 16 {
			t.Fatalf("deadline %g: %+v, want %d nodes, run time %g", req.Deadline, s, n, times[n])
		}
		if s.Run.Index != len(req.Nodes)+n-1 || !slices.Contains(s.Probes, n) {
			t.Errorf("%d nodes stored at position %d, want %d", n, s.Run.Index, len(req.Nodes)+n-1)
		}
		again, err := stage.OrdersSweep(ctx, st, req, stage.SweepOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if a := again.Smallest; again.Ran != 0 || len(a.Simulated) != 0 || a.Size != n || !slices.Equal(a.Probes, s.Probes) {
			t.Errorf("asked again: ran %d, simulated %v, %d nodes, probes %v; want nothing simulated, %d nodes, probes %v",
				again.Ran, a.Simulated, a.Size, a.Probes, n, s.Probes)
		}
	}
	req.Deadline = times[16] / 2
	none, err := stage.OrdersSweep(ctx, st, req, stage.SweepOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if s := none.Smallest; s.Size != 0 || s.Run != nil {
		t.Errorf("deadline %g below every run time: %+v", req.Deadline, s)
	}
}

// TestOrdersCostQuestions: with a budget, the fastest run of the sweep
// within it; with a deadline, the cheapest run meeting it, the sizes the
// deadline search simulated included; both are those of a scan of the
// stored runs, and neither question changes the sweep (nothing is run
// again for asking it).
func TestOrdersCostQuestions(t *testing.T) {
	ctx := context.Background()
	st, _ := ordersStore(t)
	req := stage.OrdersSweepRequest{OrdersRequest: stage.OrdersRequest{Trace: "dac", Cluster: ordersim.Cluster{Latency: 1e-5, Bandwidth: 1e8}},
		Nodes: []int{1, 4, 16}}
	first, err := stage.OrdersSweep(ctx, st, req, stage.SweepOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if first.Cheapest != nil || first.Fastest != nil {
		t.Errorf("nothing asked, answered %+v, %+v", first.Cheapest, first.Fastest)
	}
	byNodes := map[int]stored.OrderRunRow{}
	for _, r := range first.Runs {
		byNodes[r.Nodes] = r
	}
	cost := func(n int) float64 { return float64(n) * byNodes[n].Makespan }
	for _, tc := range []struct {
		name             string
		deadline, budget float64
	}{
		{"budget: every size fits", 0, cost(1) + cost(4) + cost(16)},
		{"budget: none fits", 0, min(cost(1), cost(4), cost(16)) / 2},
		{"deadline between 1 and 4 nodes, and a budget", (byNodes[1].Makespan + byNodes[4].Makespan) / 2, cost(4) * 1.01},
		{"deadline none meets", byNodes[16].Makespan / 2, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req.Deadline, req.Budget = tc.deadline, tc.budget
			sum, err := stage.OrdersSweep(ctx, st, req, stage.SweepOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if sum.Ran != 0 {
				t.Errorf("asking ran %d clusters again", sum.Ran)
			}
			// The truth, by a scan of the stored runs (the deadline
			// search's included).
			cheapest, fastest := 0, 0
			for _, r := range sum.Runs {
				c := float64(r.Nodes) * r.Makespan
				if r.Makespan <= tc.deadline && (cheapest == 0 || c < float64(cheapest)*runOn(sum.Runs, cheapest).Makespan) {
					cheapest = r.Nodes
				}
				if c <= tc.budget && (fastest == 0 || r.Makespan < runOn(sum.Runs, fastest).Makespan) {
					fastest = r.Nodes
				}
			}
			for _, a := range []struct {
				what  string
				asked bool
				got   *stage.CostPick
				want  int
			}{{"cheapest", tc.deadline > 0, sum.Cheapest, cheapest}, {"fastest", tc.budget > 0, sum.Fastest, fastest}} {
				switch {
				case !a.asked:
					if a.got != nil {
						t.Errorf("%s not asked, answered %+v", a.what, a.got)
					}
				case a.got == nil:
					t.Errorf("%s asked, not answered", a.what)
				case a.got.Size != a.want || (a.want == 0) != (a.got.Run == nil) || a.got.Scanned != len(sum.Runs):
					t.Errorf("%s: %+v, want %d nodes of %d runs scanned", a.what, a.got, a.want, len(sum.Runs))
				case a.got.Run != nil && (a.got.Run.Nodes != a.want || a.got.Cost != float64(a.want)*a.got.Run.Makespan):
					t.Errorf("%s: run %+v, cost %g", a.what, a.got.Run, a.got.Cost)
				}
			}
		})
	}
}

// runOn is the run on n nodes of runs (the first).
func runOn(runs []stored.OrderRunRow, n int) stored.OrderRunRow {
	for _, r := range runs {
		if r.Nodes == n {
			return r
		}
	}
	return stored.OrderRunRow{}
}

// sweepHash is the definition hash of the only sweep of st.
func sweepHash(t *testing.T, st *store.Store) string {
	t.Helper()
	sweeps, err := st.Sweeps(context.Background())
	if err != nil || len(sweeps) != 1 {
		t.Fatalf("sweeps: %+v, %v", sweeps, err)
	}
	return sweeps[0].Hash
}

// TestOrdersSimulationsMergeOnce: simulations outside sweeps are known by
// their content, the order_runs row included: two schedulers on the same
// cluster are two runs, and merging them twice adds them once.
func TestOrdersSimulationsMergeOnce(t *testing.T) {
	ctx := context.Background()
	st, src := ordersStore(t)
	for _, s := range []ordersim.Scheduler{ordersim.FIFO, ordersim.WorkStealing} {
		if _, err := stage.SimulateOrders(ctx, st, stage.OrdersRequest{Trace: "dac", Cluster: ordersim.Cluster{Nodes: 4},
			Options: ordersim.Options{Pin: true, Scheduler: s}}); err != nil {
			t.Fatal(err)
		}
	}
	st.Close()
	dst, _ := sweeptest.Store(t, "all.db", nil, nil)
	sum, err := dst.Merge(ctx, []string{src, src})
	if err != nil {
		t.Fatal(err)
	}
	again, err := dst.Merge(ctx, []string{src})
	if err != nil {
		t.Fatal(err)
	}
	if sum.Runs != 2 || sum.Dups != 2 || again.Runs != 0 || again.Dups != 2 {
		t.Errorf("merges %+v then %+v: want 2 runs added once, then duplicates", sum, again)
	}
	if n, err := dst.CountRows("order_runs"); err != nil || n != 2 {
		t.Errorf("%d order_runs rows (%v), want 2", n, err)
	}
}

// TestRuntimeCostsStored: the runtime's costs and the slowdown of a
// trace's header are stored with it, and a simulation of the stored trace
// on one node charges the cost of every order: its makespan is the work
// plus that (one core: nothing runs at once to slow it).
func TestRuntimeCostsStored(t *testing.T) {
	var text bytes.Buffer
	if err := ordergen.Generate(&text, dacOptions); err != nil {
		t.Fatal(err)
	}
	const orderCost = 2e-5
	withCosts := bytes.Replace(text.Bytes(), []byte(`"unit":"s"`), []byte(`"unit":"s","order_cost":2e-5,"wait_cost":1e-5,"slowdown":[1,1.5]`), 1)
	path := filepath.Join(t.TempDir(), "costly.jsonl")
	if err := os.WriteFile(path, withCosts, 0o644); err != nil {
		t.Fatal(err)
	}
	st, _ := sweeptest.Store(t, "orders.db", nil, nil)
	ctx := context.Background()
	info, err := ingest.OrderTrace(ctx, st, path)
	if err != nil {
		t.Fatal(err)
	}
	if info.OrderCost != orderCost || info.WaitCost != 1e-5 || !slices.Equal(info.Slowdown, []float64{1, 1.5}) {
		t.Fatalf("stored costs %v per order, %v per wait, slowdown %v; want the header's", info.OrderCost, info.WaitCost, info.Slowdown)
	}
	if back, err := st.OrderTrace("costly"); err != nil || !slices.Equal(back.Slowdown, info.Slowdown) {
		t.Fatalf("read back: slowdown %v, %v", back.Slowdown, err)
	}
	one, err := stage.SimulateOrders(ctx, st, stage.OrdersRequest{Trace: "costly", Cluster: ordersim.Cluster{Nodes: 1}})
	if err != nil {
		t.Fatal(err)
	}
	d := one.Detail
	least := d.Work + float64(dacOptions.Count())*orderCost
	if d.Makespan < least*(1-1e-9) {
		t.Errorf("1 node: makespan %g, want at least the work %g plus %d orders' cost: %g", d.Makespan, d.Work, dacOptions.Count(), least)
	}
}
