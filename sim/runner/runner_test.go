package runner

import (
	"context"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/jmoiron/sqlx"

	"github.com/presage-dvm/presage/ingest/golden"
	"github.com/presage-dvm/presage/ingest/machinedb"
	"github.com/presage-dvm/presage/ingest/ptr"
	"github.com/presage-dvm/presage/ingest/storetest"
	"github.com/presage-dvm/presage/ingest/tracedb"
	"github.com/presage-dvm/presage/sim"
	"github.com/presage-dvm/presage/sim/result"
)

// predictFile predicts the trace file at path straight from the reader,
// with the stored machine, as Predict would configure it.
func predictFile(t *testing.T, db *sqlx.DB, path, machineName string, grid []int) *result.Run {
	t.Helper()
	m, minfo, err := machinedb.Load(db, machineName)
	if err != nil {
		t.Fatal(err)
	}
	r, err := ptr.OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	cfg := result.Config{Machine: minfo.Name, MachineID: minfo.ID, Grid: grid, Network: "cluster"}
	run, err := sim.Predict(r.Header(), r, m.WithOverrides(0, 0, 0), cfg, sim.Options{Trace: filepath.Base(path)})
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

// TestPredictStored predicts stored traces, streamed from their packs and,
// with the pack deleted as for a trace ingested before packs, from the
// calls table: both give the numbers of the prediction from the file.
func TestPredictStored(t *testing.T) {
	ctx := context.Background()
	db := storetest.Open(t)
	if _, err := machinedb.Ingest(ctx, db, golden.Path(t, "machines", "Predictor.par")); err != nil {
		t.Fatal(err)
	}
	grid := []int{2, 2}
	for _, name := range []string{"jac1d", "jac_e4"} {
		path := golden.Path(t, "traces", name+".ptr")
		info, err := tracedb.Ingest(ctx, db, path, nil)
		if err != nil {
			t.Fatal(err)
		}
		want := predictFile(t, db, path, "Predictor", grid)
		req := Request{Trace: name, Machine: "Predictor", Config: result.Config{Grid: grid}}
		packed, err := Predict(ctx, db, req)
		if err != nil {
			t.Fatal(err)
		}
		samePrediction(t, name+" from the pack", packed, want)
		if packed.ID == 0 || packed.TraceID != info.ID || packed.Program != name {
			t.Errorf("%s: run %d of trace %d (%s) stored, want trace %d", name, packed.ID, packed.TraceID, packed.Program, info.ID)
		}

		for _, table := range []string{"trace_packs", "trace_shapes"} {
			if _, err := db.Exec(`DELETE FROM `+table+` WHERE trace_id = ?`, info.ID); err != nil {
				t.Fatal(err)
			}
		}
		unpacked, err := Predict(ctx, db, req)
		if err != nil {
			t.Fatal(err)
		}
		samePrediction(t, name+" from the calls table", unpacked, want)
	}
}

func TestPredictErrors(t *testing.T) {
	ctx := context.Background()
	db := storetest.Open(t)
	if _, err := machinedb.Ingest(ctx, db, golden.Path(t, "machines", "Predictor.par")); err != nil {
		t.Fatal(err)
	}
	if _, err := tracedb.Ingest(ctx, db, golden.Path(t, "traces", "jac1d.ptr"), nil); err != nil {
		t.Fatal(err)
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	for _, tt := range []struct {
		ctx context.Context
		req Request
		msg string
	}{
		{ctx, Request{Trace: "nope", Machine: "Predictor"}, `no trace "nope"`},
		{ctx, Request{Trace: "jac1d", Machine: "nope"}, "nope"},
		{ctx, Request{Trace: "jac1d", Machine: "Predictor", Config: result.Config{Grid: []int{64, 64}}}, "needs 4096 processors"},
		{cancelled, Request{Trace: "jac1d", Machine: "Predictor"}, "context canceled"},
	} {
		if run, err := Predict(tt.ctx, db, tt.req); err == nil || !strings.Contains(err.Error(), tt.msg) {
			t.Errorf("Predict(%+v) = %v, %v; want an error with %q", tt.req, run, err, tt.msg)
		}
	}
}
