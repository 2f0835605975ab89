package ordersim

import (
	"fmt"
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/presage-dvm/presage/orders/ordersched"
)

// TestProcsByHand: main (3 s) makes A (4 s) and B (2 s), both of
// procedure leaf, at 1 and asks for them at 2, on one node. Main runs
// 0–2 and suspends; A runs 2–6; main resumes at 6 and suspends at once
// on B, which runs 6–8; main ends 8–9. The critical path is main 0–1, B
// queued 1–6, B 6–8, main 8–9.
func TestProcsByHand(t *testing.T) {
	tr := orders{
		ord(1, 0, 0, 3, rq(2, 2), rq(3, 2)),
		ord(2, 1, 1, 4),
		ord(3, 1, 1, 2),
	}
	tr[0].Proc, tr[1].Proc, tr[2].Proc = "main", "leaf", "leaf"
	r, got := schedules(t, tr, Cluster{Nodes: 1}, Options{Pin: true, ByProc: true})
	want := []ProcStats{
		{Proc: "leaf", Orders: 2, Work: 6, PathTime: 2, MeanDuration: 3, SDDuration: 1},
		{Proc: "main", Orders: 1, Work: 3, PathTime: 2, MeanDuration: 9},
	}
	if !reflect.DeepEqual(r.Procs, want) {
		t.Errorf("procs %+v\nwant %+v", r.Procs, want)
	}
	if s := got[1].Stretches; !slices.Equal(s, []Stretch{{0, 0, 2}, {0, 6, 6}, {0, 8, 9}}) {
		t.Errorf("main ran %v, want 0–2, 6–6 (resumed, suspended at once), 8–9", s)
	}
	for id, child := range map[int64]int{1: 0, 2: 0, 3: 1} {
		if o := got[id]; o.Child != child || o.Proc != tr[id-1].Proc || o.Parent != tr[id-1].Parent {
			t.Errorf("order %d: child %d, proc %q, parent %d; want %d, %q, %d", id, o.Child, o.Proc, o.Parent, child, tr[id-1].Proc, tr[id-1].Parent)
		}
	}
	wantPath := []Step{{Kind: Exec, Index: 0, Order: 1, Proc: "main", End: 1}, {Kind: Queue, Index: 1, Order: 3, Proc: "leaf", Start: 1, End: 6},
		{Kind: Exec, Index: 2, Order: 3, Proc: "leaf", Start: 6, End: 8}, {Kind: Exec, Index: 3, Order: 1, Proc: "main", Start: 8, End: 9}}
	if !slices.Equal(r.CriticalPath, wantPath) {
		t.Errorf("critical path %v\nwant %v", r.CriticalPath, wantPath)
	}
	summed := *r
	summed.Procs = nil
	if plain := simulate(t, tr, Cluster{Nodes: 1}, Options{Pin: true}); plain.Procs != nil || !sameResult(plain, &summed) {
		t.Errorf("without ByProc: procs %v, result %+v; want none and the same schedule", plain.Procs, plain)
	}
}

// TestSchedulesAddUp plays every trace, its orders named after one of
// eleven procedures (more than names keeps without a map), on every
// scheduler, resuming in place and migrating, and checks what each order
// reports against the trace and against the nodes' times: its stretches
// follow each other from its start to its end with its waits between
// them; they add up, node by node, to the nodes' busy time; the children
// of an order are numbered from 0 in order of making; the sums by
// procedure are those of the orders, and the critical path's runs.
func TestSchedulesAddUp(t *testing.T) {
	for i, tr := range traces(t) {
		tr = named(tr, 1+i%11)
		for _, s := range ordersched.All {
			for _, migrate := range []bool{false, true} {
				cl := Cluster{Nodes: 3, Cores: 1 + i%2, Latency: 0.05, Bandwidth: 1e3}
				opt := Options{Scheduler: s, Seed: uint64(i), Pin: !migrate, ByProc: true}
				r, got := schedules(t, tr, cl, opt)
				name := fmt.Sprintf("trace %d, %s, migrate %v", i, s, migrate)
				checkStretches(t, name, tr, r, got)
				checkProcs(t, name, r, got)
				// Without OnOrder the sums keep no schedule, and are the
				// same to the bit.
				if alone := simulate(t, tr, cl, opt); !reflect.DeepEqual(alone.Procs, r.Procs) {
					t.Errorf("%s: procs without OnOrder %+v\nwith %+v", name, alone.Procs, r.Procs)
				}
			}
		}
	}
}

// named returns tr with order i running procedure "p(i mod k)".
func named(tr orders, k int) orders {
	out := make(orders, len(tr))
	for i, o := range tr {
		c := *o
		c.Proc = fmt.Sprintf("p%d", int(o.ID)%k)
		out[i] = &c
	}
	return out
}

func checkStretches(t *testing.T, name string, tr orders, r *Result, got map[int64]OrderResult) {
	t.Helper()
	busy := make([]float64, len(r.Nodes))
	kids := map[int64]int{}
	for _, o := range tr {
		g := got[o.ID]
		if g.Proc != o.Proc || g.Parent != o.Parent {
			t.Fatalf("%s: order %d reports proc %q, parent %d; the trace says %q, %d", name, o.ID, g.Proc, g.Parent, o.Proc, o.Parent)
		}
		if o.ID > 1 {
			if g.Child != kids[o.Parent] {
				t.Fatalf("%s: order %d is child %d of %d, want %d", name, o.ID, g.Child, o.Parent, kids[o.Parent])
			}
			kids[o.Parent]++
		}
		st := g.Stretches
		if len(st) == 0 || st[0].Start != g.Start || st[len(st)-1].End != g.End || st[len(st)-1].Node != g.Node {
			t.Fatalf("%s: order %d ran %v, its schedule %+v", name, o.ID, st, g)
		}
		ran := 0.0
		for j, s := range st {
			if s.End < s.Start || j > 0 && s.Start < st[j-1].End {
				t.Fatalf("%s: order %d's stretches %v out of time order", name, o.ID, st)
			}
			ran += s.End - s.Start
			busy[s.Node] += s.End - s.Start
		}
		if !near(ran+g.Wait, g.End-g.Start) {
			t.Errorf("%s: order %d ran %v and waited %v from %v to %v", name, o.ID, ran, g.Wait, g.Start, g.End)
		}
	}
	for n := range busy {
		if !near(busy[n], r.Nodes[n].Busy) {
			t.Errorf("%s: node %d: stretches of %v, busy %v", name, n, busy[n], r.Nodes[n].Busy)
		}
	}
}

func checkProcs(t *testing.T, name string, r *Result, got map[int64]OrderResult) {
	t.Helper()
	want := map[string]*ProcStats{}
	durations := map[string][]float64{}
	for _, g := range got {
		p := want[g.Proc]
		if p == nil {
			p = &ProcStats{Proc: g.Proc}
			want[g.Proc] = p
		}
		p.Orders++
		for _, s := range g.Stretches {
			p.Work += s.End - s.Start
		}
		durations[g.Proc] = append(durations[g.Proc], g.End-g.Start)
	}
	for _, s := range r.CriticalPath {
		if s.Kind == Exec {
			want[s.Proc].PathTime += s.End - s.Start
		}
	}
	if len(r.Procs) != len(want) || !slices.IsSortedFunc(r.Procs, func(a, b ProcStats) int { return strings.Compare(a.Proc, b.Proc) }) {
		t.Fatalf("%s: procs %+v, want %d by name", name, r.Procs, len(want))
	}
	for _, p := range r.Procs {
		w := want[p.Proc]
		mean, sd := meanSD(durations[p.Proc])
		if w == nil || p.Orders != w.Orders || !near(p.Work, w.Work) || !near(p.PathTime, w.PathTime) ||
			!near(p.MeanDuration, mean) || math.Abs(p.SDDuration-sd) > 1e-9*max(1, mean) {
			t.Errorf("%s: %+v, want %+v, mean %v, sd %v", name, p, w, mean, sd)
		}
	}
}

// meanSD is the mean and the population's standard deviation of xs, in
// two passes.
func meanSD(xs []float64) (mean, sd float64) {
	for _, x := range xs {
		mean += x
	}
	mean /= float64(len(xs))
	for _, x := range xs {
		sd += (x - mean) * (x - mean)
	}
	return mean, math.Sqrt(sd / float64(len(xs)))
}

// TestNamesNumbering: names numbers procedures in order of first sight,
// past the few it keeps without a map too.
func TestNamesNumbering(t *testing.T) {
	for _, tc := range []struct {
		name  string
		names []string
		want  []int32
	}{
		{"one", []string{"a", "a", "a"}, []int32{0, 0, 0}},
		{"alternating", []string{"a", "b", "a", "b", "c", "a"}, []int32{0, 1, 0, 1, 2, 0}},
		{"past the array", []string{"0", "1", "2", "3", "4", "5", "6", "7", "8", "3", "9", "8", "0"},
			[]int32{0, 1, 2, 3, 4, 5, 6, 7, 8, 3, 9, 8, 0}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var n names
			var got []int32
			for _, s := range tc.names {
				got = append(got, n.number(s))
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("numbers %v, want %v", got, tc.want)
			}
			for i, s := range tc.names {
				if n.name(got[i]) != s {
					t.Errorf("name(%d) = %q, want %q", got[i], n.name(got[i]), s)
				}
			}
		})
	}
}

// TestOnOrderSharesNothingUnasked: without ByProc there are no sums, and
// without OnOrder no schedule is kept: with ByProc alone, the sums only
// (an order's wait is kept in its entry).
func TestOnOrderSharesNothingUnasked(t *testing.T) {
	r, _ := schedules(t, forkJoin(), nodes(2, slow), Options{Pin: true})
	if r.Procs != nil {
		t.Errorf("sums without ByProc: %+v", r.Procs)
	}
	p := prepare(t, forkJoin())
	src, _ := forkJoin().open()
	e := newEngine(p, src, nodes(2, slow), Options{Pin: true})
	if err := e.run(); err != nil {
		t.Fatal(err)
	}
	if e.times != nil || e.sums != nil {
		t.Errorf("%d chunks of schedules, %d sums kept for nobody", len(e.times), len(e.sums))
	}
	src, _ = forkJoin().open()
	e = newEngine(p, src, nodes(2, slow), Options{Pin: true, ByProc: true})
	if err := e.run(); err != nil {
		t.Fatal(err)
	}
	if e.times != nil || e.sums == nil {
		t.Errorf("ByProc alone: %d chunks of schedules, %d sums", len(e.times), len(e.sums))
	}
}
