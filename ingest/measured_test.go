package ingest_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/presage-dvm/presage/ingest"
	"github.com/presage-dvm/presage/internal/storetest"
	"github.com/presage-dvm/presage/orders/measured"
	"github.com/presage-dvm/presage/schema/stored"
	"github.com/presage-dvm/presage/sim/result"
)

func measuredRun() *measured.Execution {
	return &measured.Execution{Program: "matmul", Machine: "host/amd64", Started: time.Date(2026, 11, 24, 11, 0, 0, 0, time.UTC),
		Orders: 5, Makespan: 1.5, Workers: []measured.Worker{
			{Orders: 3, Busy: 1.25, Waiting: 0.125, Idle: 0.125},
			{Orders: 2, Busy: 1, Idle: 0.5},
		}}
}

func writeMeasured(t *testing.T, dir string, m *measured.Execution) string {
	t.Helper()
	var buf bytes.Buffer
	if err := measured.Write(&buf, m); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, m.Program+".jsonl")
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestOrderMeasurementStored: a measured-run file becomes a measured run
// whose characteristics are the workers' time (a worker is a node of one
// core), once per content.
func TestOrderMeasurementStored(t *testing.T) {
	ctx := context.Background()
	st := storetest.Open(t)
	path := writeMeasured(t, t.TempDir(), measuredRun())
	info, err := ingest.OrderMeasurement(ctx, st, path)
	if err != nil {
		t.Fatal(err)
	}
	if info.Name != "matmul" || info.Workers != 2 || info.Orders != 5 || info.RunID == 0 || info.Existing {
		t.Fatalf("stored %+v", info)
	}
	run := storetest.Load(t, st, info.RunID)
	main := run.Intervals[0]
	if run.Kind != result.Measured || run.Program != "matmul" || result.GridString(run.Config.Grid) != "2" {
		t.Errorf("run %+v", run)
	}
	for _, c := range []struct {
		char result.Char
		want float64
	}{
		{result.ExecutionTime, 1.5}, {result.TotalTime, 3}, {result.ProductiveTime, 2.25},
		{result.Synchronization, 0.125}, {result.InsuffParallelism, 0.625}, {result.LostTime, 0.75},
		{result.Efficiency, 0.75},
	} {
		if got := main.Values[c.char]; got != c.want {
			t.Errorf("%s = %v, want %v", c.char, got, c.want)
		}
	}
	if len(main.Procs) != 2 || main.Procs[1].Values[result.Efficiency] != 1.0/1.5 {
		t.Errorf("per-worker values %+v", main.Procs)
	}
	if info.Scheduler != "fifo" {
		t.Errorf("scheduler %q of a run without one, want fifo", info.Scheduler)
	}
	again, err := ingest.OrderMeasurement(ctx, st, path)
	if err != nil || !again.Existing || again.ID != info.ID || again.RunID != info.RunID {
		t.Errorf("second ingest: %+v, %v; want the stored file", again, err)
	}
	if n := storetest.Count(t, st, "runs"); n != 1 {
		t.Errorf("%d runs after two ingests of one file, want 1", n)
	}
}

// TestOrderMeasurementBadInput: a defective file is named with its line
// and stores nothing.
func TestOrderMeasurementBadInput(t *testing.T) {
	st := storetest.Open(t)
	bad := measuredRun()
	bad.Workers[1].Idle = 0.25 // the worker's times no longer add up to the makespan
	path := writeMeasured(t, t.TempDir(), bad)
	_, err := ingest.OrderMeasurement(context.Background(), st, path)
	if err == nil || !strings.Contains(err.Error(), path+":3:") || !strings.Contains(err.Error(), "expected the makespan") {
		t.Fatalf("error %v, want one naming %s:3 and the makespan", err, path)
	}
	for _, table := range []string{"order_measurements", "runs", "intervals"} {
		if n := storetest.Count(t, st, table); n != 0 {
			t.Errorf("%d rows in %s after a bad file", n, table)
		}
	}
}

// scheduled is measuredRun with its schedule: main on worker 0 makes two
// halves and waits for them, resuming on worker 1; the first half makes
// two leaves.
func scheduled() *measured.Execution {
	m := measuredRun()
	m.Scheduler, m.Migrate = "locality", true
	m.Workers = []measured.Worker{{Orders: 4, Busy: 1.25, Waiting: 0.125, Idle: 0.125}, {Orders: 1, Busy: 1.25, Idle: 0.25}}
	m.Schedule = []measured.Order{
		{ID: 1, Proc: "sort", Stretches: []measured.Stretch{{Worker: 0, Start: 0, End: 0.25}, {Worker: 1, Start: 1.25, End: 1.5}}},
		{ID: 2, Parent: 1, Child: 0, Proc: "half", Made: 0.125, Stretches: []measured.Stretch{{Worker: 0, Start: 0.25, End: 0.5}, {Worker: 0, Start: 0.75, End: 1}}},
		{ID: 3, Parent: 1, Child: 1, Proc: "half", Made: 0.25, Stretches: []measured.Stretch{{Worker: 1, Start: 0.25, End: 1.25}}},
		{ID: 4, Parent: 2, Child: 0, Proc: "leaf", Made: 0.375, Stretches: []measured.Stretch{{Worker: 0, Start: 0.5, End: 0.75}}},
		{ID: 5, Parent: 2, Child: 1, Proc: "leaf", Made: 0.5, Stretches: []measured.Stretch{{Worker: 0, Start: 1, End: 1.25}}},
	}
	return m
}

// TestOrderMeasurementSchedule: a file with a schedule stores every order
// where it started, from its first stretch to its last with the time
// between as its wait, its stretches, the sums per procedure, the workers
// as nodes and the scheduler; the stored run reads back as an orders run
// whose detail is the file's.
func TestOrderMeasurementSchedule(t *testing.T) {
	ctx := context.Background()
	st := storetest.Open(t)
	info, err := ingest.OrderMeasurement(ctx, st, writeMeasured(t, t.TempDir(), scheduled()))
	if err != nil {
		t.Fatal(err)
	}
	if info.Scheduler != "locality" || !info.Migrate {
		t.Errorf("stored %+v", info)
	}
	got, err := st.OrderSimulation(ctx, info.RunID, -1)
	if err != nil {
		t.Fatal(err)
	}
	if d := got.Detail; d.Scheduler != "locality" || !d.Migrate || d.Nodes != 2 || d.Cores != 1 || d.Makespan != 1.5 || d.Work != 2.5 {
		t.Errorf("detail %+v", d)
	}
	wantNodes := []stored.OrderNode{{Node: 0, Orders: 4, Busy: 1.25, Idle: 0.125, Waiting: 0.125}, {Node: 1, Orders: 1, Busy: 1.25, Idle: 0.25}}
	if !slices.Equal(got.Nodes, wantNodes) {
		t.Errorf("nodes %+v, want %+v", got.Nodes, wantNodes)
	}
	byID := map[int64]stored.OrderEvent{}
	for _, e := range got.Events {
		byID[e.Order] = e
	}
	for _, want := range []stored.OrderEvent{
		{Order: 1, Proc: "sort", Node: 0, Ready: 0, Start: 0, End: 1.5, Wait: 1},
		{Order: 2, Proc: "half", Parent: 1, Child: 0, Node: 0, Ready: 0.125, Start: 0.25, End: 1, Wait: 0.25},
		{Order: 5, Proc: "leaf", Parent: 2, Child: 1, Node: 0, Ready: 0.5, Start: 1, End: 1.25},
	} {
		if byID[want.Order] != want {
			t.Errorf("order %d: %+v, want %+v", want.Order, byID[want.Order], want)
		}
	}
	if len(got.Events) != 5 || len(got.Stretches) != 7 || got.Stretches[1] != (stored.OrderStretch{Order: 1, Seq: 1, Node: 1, Start: 1.25, End: 1.5}) {
		t.Errorf("%d events, stretches %+v", len(got.Events), got.Stretches)
	}
	wantProcs := []stored.OrderProc{
		{Proc: "half", Orders: 2, Work: 1.5, MeanDuration: 0.875, SDDuration: 0.125},
		{Proc: "leaf", Orders: 2, Work: 0.5, MeanDuration: 0.25},
		{Proc: "sort", Orders: 1, Work: 0.5, MeanDuration: 1.5},
	}
	if !slices.Equal(got.Procs, wantProcs) {
		t.Errorf("procedures %+v, want %+v", got.Procs, wantProcs)
	}
}

// TestOrderMeasurementOfWorkerProcesses: a run whose workers were the
// cores of worker processes is stored as a run of the processes, each a
// node of its cores, whose times and orders are its cores' summed.
func TestOrderMeasurementOfWorkerProcesses(t *testing.T) {
	ctx := context.Background()
	st := storetest.Open(t)
	m := scheduled()
	m.Scheduler, m.Migrate, m.Cores = "fifo", false, 2
	m.Workers = append(m.Workers, measured.Worker{Orders: 0, Idle: 1.5}, measured.Worker{Orders: 0, Idle: 1.5})
	m.Schedule[2].Stretches[0].Worker = 3 // order 3 ran on process 1
	info, err := ingest.OrderMeasurement(ctx, st, writeMeasured(t, t.TempDir(), m))
	if err != nil {
		t.Fatal(err)
	}
	if info.Workers != 4 || info.Cores != 2 {
		t.Errorf("stored %+v: want 4 workers, the cores of processes of 2", info)
	}
	got, err := st.OrderSimulation(ctx, info.RunID, -1)
	if err != nil {
		t.Fatal(err)
	}
	if d := got.Detail; d.Nodes != 2 || d.Cores != 2 || d.Processes != 2 || d.Work != 2.5 {
		t.Errorf("detail %+v: want 2 processes of 2 cores, the work of all", d)
	}
	wantNodes := []stored.OrderNode{{Node: 0, Orders: 5, Busy: 2.5, Idle: 0.375, Waiting: 0.125}, {Node: 1, Orders: 0, Idle: 3}}
	if !slices.Equal(got.Nodes, wantNodes) {
		t.Errorf("nodes %+v, want %+v", got.Nodes, wantNodes)
	}
	var nodes []int
	for _, s := range got.Stretches {
		nodes = append(nodes, s.Node)
	}
	if want := []int{0, 0, 0, 0, 1, 0, 0}; !slices.Equal(nodes, want) {
		t.Errorf("the stretches' nodes %v, want %v (a worker's process)", nodes, want)
	}
}
