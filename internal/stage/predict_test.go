package stage_test

import (
	"context"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/presage-dvm/presage/ingest"
	"github.com/presage-dvm/presage/ingest/ptr"
	"github.com/presage-dvm/presage/internal/golden"
	"github.com/presage-dvm/presage/internal/stage"
	"github.com/presage-dvm/presage/internal/storetest"
	"github.com/presage-dvm/presage/schema/store"
	"github.com/presage-dvm/presage/sim"
	"github.com/presage-dvm/presage/sim/result"
)

// predictFile predicts the trace file at path straight from the reader,
// with the stored machine, as Predict would configure it.
func predictFile(t *testing.T, db *store.Store, path, machineName string, grid []int) *result.Run {
	t.Helper()
	m, minfo, err := db.Machine(machineName)
	if err != nil {
		t.Fatal(err)
	}
	r, err := ptr.OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	cfg := result.Config{Machine: minfo.Name, MachineID: minfo.ID, Grid: grid, Network: "cluster"}
	run, err := sim.Predict(r.Header(), r, m, cfg, sim.Options{TraceFile: filepath.Base(path)})
	if err != nil {
		t.Fatal(err)
	}
	return run
}

func samePrediction(t *testing.T, what string, got, want *result.Run) {
	t.Helper()
	if len(got.Intervals) == 0 || got.Intervals[0].Values[result.ExecutionTime] <= 0 {
		t.Fatalf("%s: empty prediction %+v", what, got)
	}
	if !reflect.DeepEqual(got.Intervals, want.Intervals) || got.ReportRoot != want.ReportRoot ||
		!reflect.DeepEqual(got.Warnings, want.Warnings) || !reflect.DeepEqual(got.Config, want.Config) {
		t.Errorf("%s: execution time %v, want %v (or other values differ)", what,
			got.Intervals[0].Values[result.ExecutionTime], want.Intervals[0].Values[result.ExecutionTime])
	}
}

// TestPredictStored predicts stored traces, streamed from their packs:
// they give the numbers of the prediction from the file.
func TestPredictStored(t *testing.T) {
	ctx := context.Background()
	db := storetest.Open(t)
	if _, err := ingest.Machine(ctx, db, golden.Path(t, "machines", "Predictor.par")); err != nil {
		t.Fatal(err)
	}
	grid := []int{2, 2}
	for _, name := range []string{"jac1d", "jac_e4"} {
		path := golden.Path(t, "traces", name+".ptr")
		info, err := ingest.Trace(ctx, db, path, nil)
		if err != nil {
			t.Fatal(err)
		}
		want := predictFile(t, db, path, "Predictor", grid)
		req := stage.PredictRequest{Trace: name, Machine: "Predictor", Config: result.Config{Grid: grid}}
		packed, err := stage.PredictOne(ctx, db, req)
		if err != nil {
			t.Fatal(err)
		}
		samePrediction(t, name+" from the pack", packed, want)
		if packed.ID == 0 || packed.TraceID != info.ID || packed.Program != name {
			t.Errorf("%s: run %d of trace %d (%s) stored, want trace %d", name, packed.ID, packed.TraceID, packed.Program, info.ID)
		}
	}
}

func TestPredictErrors(t *testing.T) {
	ctx := context.Background()
	db := storetest.Open(t)
	if _, err := ingest.Machine(ctx, db, golden.Path(t, "machines", "Predictor.par")); err != nil {
		t.Fatal(err)
	}
	if _, err := ingest.Trace(ctx, db, golden.Path(t, "traces", "jac1d.ptr"), nil); err != nil {
		t.Fatal(err)
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	for _, tt := range []struct {
		ctx context.Context
		req stage.PredictRequest
		msg string
	}{
		{ctx, stage.PredictRequest{Trace: "nope", Machine: "Predictor"}, `no trace "nope"`},
		{ctx, stage.PredictRequest{Trace: "jac1d", Machine: "nope"}, "nope"},
		{ctx, stage.PredictRequest{Trace: "jac1d", Machine: "Predictor", Config: result.Config{Grid: []int{64, 64}}}, "needs 4096 processors"},
		{cancelled, stage.PredictRequest{Trace: "jac1d", Machine: "Predictor"}, "context canceled"},
	} {
		if run, err := stage.PredictOne(tt.ctx, db, tt.req); err == nil || !strings.Contains(err.Error(), tt.msg) {
			t.Errorf("PredictOne(%+v) = %v, %v; want an error with %q", tt.req, run, err, tt.msg)
		}
	}
}
