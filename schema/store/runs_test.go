package store_test

import (
	"context"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/presage-dvm/presage/schema/store"
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
			pv := result.ProcValues{Proc: p}
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
