package ingest_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/presage-dvm/presage/ingest"
	"github.com/presage-dvm/presage/internal/storetest"
	"github.com/presage-dvm/presage/orders/measured"
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
