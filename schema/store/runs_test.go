package store_test

import (
	"context"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/presage-dvm/presage/schema/store"
	"github.com/presage-dvm/presage/sim/events"
	"github.com/presage-dvm/presage/sim/result"
)

func sampleRun() *result.Run {
	expr := int64(7)
	root := &result.Interval{ID: 1, Level: 0, Type: result.Main, Count: 1, Line: 3, File: "a.fdv", Children: []int{2}}
	child := &result.Interval{ID: 2, Parent: 1, Level: 1, Type: result.Par, Count: 20, Line: 9, File: "a.fdv", Expr: &expr}
	for i, iv := range []*result.Interval{root, child} {
		iv.Values[result.ExecutionTime] = 0.25 / float64(i+1)
		iv.Values[result.Efficiency] = 0.5
		for p := 0; p < 4; p++ {
			pv := result.NewProcValues(p)
			if p != 2 { // processor 2 has nothing but must still be there
				pv.Values[result.Idle] = float64(p) * 1e-3
				pv.Values[result.ExecutionTime] = 0.1
			}
			iv.Procs = append(iv.Procs, pv)
		}
	}
	return &result.Run{
		Kind: result.Predicted, Program: "a", ReportRoot: 1,
		Config:    result.Config{Grid: []int{2, 2}, Network: "cluster", TByte: 4e-9},
		Intervals: []*result.Interval{root, child},
		Warnings:  []result.Warning{{Message: "unknown function x_", Count: 3}},
	}
}

func openStore(t *testing.T) *store.Store {
	t.Helper()
	st, err := store.Open(filepath.Join(t.TempDir(), "s.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

func TestSaveLoad(t *testing.T) {
	st := openStore(t)
	run := sampleRun()
	if err := st.SaveRun(context.Background(), run, store.SaveOptions{}); err != nil {
		t.Fatal(err)
	}
	id, err := st.ResolveRun("latest")
	if err != nil || id != run.ID {
		t.Fatalf("ResolveRun(latest) = %d, %v; want %d", id, err, run.ID)
	}
	got, err := st.Run(run.ID)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, run) {
		t.Errorf("loaded run differs:\n got  %+v\n want %+v", got, run)
	}
	if _, err := st.ResolveRun("99"); err == nil {
		t.Error("ResolveRun of a run that does not exist succeeded")
	}
}

func TestSavePerProcMax(t *testing.T) {
	st := openStore(t)
	run := sampleRun()
	if err := st.SaveRun(context.Background(), run, store.SaveOptions{PerProcMax: 2}); err != nil {
		t.Fatal(err)
	}
	if n := count(t, st, "interval_proc_values"); n != 0 {
		t.Errorf("%d per-processor rows written for 4 processors with PerProcMax 2", n)
	}
	if count(t, st, "interval_stats") == 0 {
		t.Error("no comparative characteristics written")
	}
}

// TestProcValuesByClass stores the per-processor values of a grid whose
// processors fall into three classes once per class, and gives every
// processor's values back exactly, through the store and through the view.
func TestProcValuesByClass(t *testing.T) {
	st := openStore(t)
	run := sampleRun()
	iv := run.Intervals[0]
	iv.Procs = nil
	for p := range 64 {
		pv := result.NewProcValues(p)
		pv.Values[result.ExecutionTime] = 0.1
		switch {
		case p == 0 || p == 63:
			pv.Values[result.Idle] = 0.1 / 3 // not a short decimal
		case p%2 == 1:
			pv.Values[result.Idle] = 2e-3
			pv.Values[result.Synchronization] = 1e-300
		}
		iv.Procs = append(iv.Procs, pv)
	}
	if err := st.SaveRun(context.Background(), run, store.SaveOptions{}); err != nil {
		t.Fatal(err)
	}
	got, err := st.Run(run.ID)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got.Intervals[0].Procs, iv.Procs) {
		t.Errorf("per-processor values differ:\n got  %+v\n want %+v", got.Intervals[0].Procs, iv.Procs)
	}
	var classes []string
	if err := st.Select(&classes, `SELECT classes FROM interval_proc_classes WHERE run_id = ? AND interval_id = ?`, run.ID, iv.ID); err != nil {
		t.Fatal(err)
	}
	if want := "[0,1,2,1,2,1"; len(classes) != 1 || !strings.HasPrefix(classes[0], want) || !strings.HasSuffix(classes[0], ",1,2,0]") {
		t.Errorf("classes = %v, want three classes: %s...,1,2,0]", classes, want)
	}
	var rows []int
	if err := st.Select(&rows, `SELECT count(*) FROM interval_proc_values WHERE run_id = ? AND interval_id = ?`, run.ID, iv.ID); err != nil {
		t.Fatal(err)
	}
	// Execution times; idle of 2 ends and 31 odd ones (63 is an end);
	// synchronization of 31 odd ones.
	if want := 64 + 2 + 31 + 31; rows[0] != want {
		t.Errorf("the view has %d rows, want %d", rows[0], want)
	}
}

// TestTimelineRoundTrip: a run's per-processor picture comes back as
// stored, its shares included; a picture without shares (stored before
// schema 19) comes back without them.
func TestTimelineRoundTrip(t *testing.T) {
	st := openStore(t)
	ctx := context.Background()
	sm := &events.Sample{Procs: []int{0, 3}, Total: 4, Bucket: 4, End: 16,
		States: [][]events.State{{events.Computing, events.Redundant, 0}, {events.Communicating, events.Computing, events.Waiting}},
		Mixes: [][]events.Mix{
			{{events.Computing: 255}, {events.Redundant: 200, events.Computing: 55}, {}},
			{{events.Communicating: 130, events.Computing: 125}, {events.Computing: 255}, {events.Waiting: 64}},
		}}
	for _, withMix := range []bool{true, false} {
		in := *sm
		if !withMix {
			in.Mixes = nil
		}
		run := sampleRun()
		if err := st.SaveRun(ctx, run, store.SaveOptions{Timeline: &in}); err != nil {
			t.Fatal(err)
		}
		got, err := st.RunTimeline(ctx, run.ID)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, &in) {
			t.Errorf("with shares %v: stored %+v, read %+v", withMix, in, *got)
		}
	}
}
