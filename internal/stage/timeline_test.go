package stage_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/presage-dvm/presage/ingest"
	"github.com/presage-dvm/presage/internal/golden"
	"github.com/presage-dvm/presage/internal/stage"
	"github.com/presage-dvm/presage/internal/storetest"
	"github.com/presage-dvm/presage/sim/events"
	"github.com/presage-dvm/presage/sim/result"
)

// countingRecorder counts the states and messages of a replay.
type countingRecorder struct {
	busy     map[int]float64
	messages int
}

func (r *countingRecorder) State(_ events.State, who events.Procs, _, dur float64) {
	for p := range who.Each() {
		r.busy[p] += dur
	}
}

func (r *countingRecorder) Message(events.Message) { r.messages++ }

// TestReplay re-simulates a stored run with a recorder: the events cover
// every processor's Execution_time, and a run that is not a prediction
// from a stored trace is refused.
func TestReplay(t *testing.T) {
	ctx := context.Background()
	db := storetest.Open(t)
	if _, err := ingest.Machine(ctx, db, golden.Path(t, "machines", "Predictor.par")); err != nil {
		t.Fatal(err)
	}
	if _, err := ingest.Trace(ctx, db, golden.Path(t, "traces", "jac.ptr"), nil); err != nil {
		t.Fatal(err)
	}
	run, err := stage.PredictOne(ctx, db, stage.PredictRequest{Trace: "jac", Machine: "Predictor",
		Config: result.Config{Grid: []int{2, 2}, Network: "bus", TStart: 20e-6}})
	if err != nil {
		t.Fatal(err)
	}
	rec := &countingRecorder{busy: map[int]float64{}}
	stored, err := db.Run(run.ID)
	if err != nil {
		t.Fatal(err)
	}
	if err := stage.Replay(ctx, db, stored, rec); err != nil {
		t.Fatal(err)
	}
	if rec.messages == 0 {
		t.Errorf("replay of run %d gave no messages", run.ID)
	}
	for p, pv := range run.Intervals[0].Procs {
		if want := pv.Values[result.ExecutionTime]; rec.busy[p] < want*(1-1e-9) || rec.busy[p] > want*(1+1e-9) {
			t.Errorf("processor %d: %v s of states, Execution_time %v", p, rec.busy[p], want)
		}
	}
	untraced := *stored
	untraced.TraceID = 0
	if err := stage.Replay(ctx, db, &untraced, rec); err == nil || !strings.Contains(err.Error(), fmt.Sprintf("run %d", run.ID)) {
		t.Errorf("replay of a run without a stored trace: %v, expected an error naming the run", err)
	}
}
