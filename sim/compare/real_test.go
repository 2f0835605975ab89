package compare_test

import (
	"context"
	"math"
	"testing"

	"github.com/presage-dvm/presage/ingest"
	"github.com/presage-dvm/presage/internal/golden"
	"github.com/presage-dvm/presage/internal/storetest"
	"github.com/presage-dvm/presage/schema/store"
	"github.com/presage-dvm/presage/sim"
	"github.com/presage-dvm/presage/sim/compare"
	"github.com/presage-dvm/presage/sim/result"
)

// storedRuns ingests the trace, the machine Predictor.par and the sts file
// of prog, predicts the 2x2 grid, and loads both runs back from the store
// as the CLI would.
func storedRuns(t *testing.T, prog string) (measured, predicted *result.Run) {
	t.Helper()
	ctx := context.Background()
	db := storetest.Open(t)
	if _, err := ingest.Trace(ctx, db, golden.Path(t, "traces", prog+".ptr"), nil); err != nil {
		t.Fatal(err)
	}
	if _, err := ingest.Machine(ctx, db, golden.Path(t, "machines", "Predictor.par")); err != nil {
		t.Fatal(err)
	}
	// Predicted as stage.PredictOne does (which imports this package).
	info, err := db.Trace(prog)
	if err != nil {
		t.Fatal(err)
	}
	m, minfo, err := db.Machine("Predictor")
	if err != nil {
		t.Fatal(err)
	}
	tr, err := db.OpenTrace(ctx, info)
	if err != nil {
		t.Fatal(err)
	}
	pr, err := sim.Predict(tr.Header, tr, m, result.Config{Grid: []int{2, 2}, Machine: minfo.Name, MachineID: minfo.ID}, sim.Options{TraceFile: prog + ".ptr"})
	tr.Close()
	if err != nil {
		t.Fatalf("predict %s: %v", prog, err)
	}
	pr.TraceID, pr.Program = info.ID, info.Name
	if err := db.SaveRun(ctx, pr, store.SaveOptions{}); err != nil {
		t.Fatal(err)
	}
	sts, err := ingest.Sts(ctx, db, golden.Path(t, "sts", prog+".2x2.sts.gz+"))
	if err != nil {
		t.Fatal(err)
	}
	return storetest.Load(t, db, sts.RunID), storetest.Load(t, db, pr.ID)
}

// TestJacE4 compares the prediction of jac_e4 on 2x2 with its measurement
// on 2x2: the Predictor's report tree (from the level-1 Seq interval) and
// the analyzer's (from Main) hold the same five intervals.
func TestJacE4(t *testing.T) {
	measured, predicted := storedRuns(t, "jac_e4")
	c, err := compare.Compare(measured, predicted, compare.Options{})
	if err != nil {
		t.Fatal(err)
	}
	// The measured Main with the prediction's program-level Seq at line 8
	// (a real run's Main starts where it does, after the traced run's
	// start-up), its four loops matched with the measured ones; the
	// prediction's Main, start-up included, is left over.
	if got := pairs(c); got != "2=1/main 3=2/path 4=3/path 5=4/path 6=5/path" {
		t.Errorf("matches %s", got)
	}
	if len(c.UnmatchedMeasured) != 0 || len(c.UnmatchedPredicted) != 1 || c.UnmatchedPredicted[0].ID != 1 {
		t.Errorf("unmatched: predicted %v, measured %v", c.UnmatchedPredicted, c.UnmatchedMeasured)
	}
	main := c.Matches[0]
	if v, _ := main.Value(result.ExecutionTime); math.Abs(v.Measured-0.3645) > 1e-4 || math.Abs(v.Predicted-0.0033) > 1e-4 {
		t.Errorf("Main: measured %v, predicted %v; want 0.3645 and 0.0033 (the program-level loop's)", v.Measured, v.Predicted)
	}
	if len(c.Warnings) != 0 {
		t.Errorf("warnings %q for two 2x2 runs", c.Warnings)
	}
	for _, m := range c.Matches {
		if m.By == compare.ByMain {
			if m.Measured.Type != result.Main || m.Predicted.Type != result.Seq || m.Measured.Line != m.Predicted.Line {
				t.Errorf("%s matched %s as Main: want the program-level Seq at Main's line", m.Predicted, m.Measured)
			}
		} else if m.Measured.Key() != m.Predicted.Key() {
			t.Errorf("%s matched %s by %s", m.Predicted, m.Measured, m.By)
		}
		if m.Measured.Count != m.Predicted.Count {
			t.Errorf("%s entered %d times measured, %d predicted", m.Predicted, m.Measured.Count, m.Predicted.Count)
		}
		v, _ := m.Value(result.ExecutionTime)
		if !(v.Measured > 0) || !(v.Predicted > 0) {
			t.Errorf("%s: execution time measured %v, predicted %v; want both positive", m.Predicted, v.Measured, v.Predicted)
		}
	}
	if s := c.Summary; s.MAPECount != 5 || math.IsNaN(s.MAPE) || math.IsInf(s.MAPE, 0) || s.MAPE <= 0 {
		t.Errorf("MAPE %v over %d intervals, want finite over 5", s.MAPE, s.MAPECount)
	}
}

// TestRealPrograms compares the other programs that exist as a trace and
// as statistics, on 2x2. jac was traced without intervals: its prediction
// has Main only, and the measured loops stay unmatched.
func TestRealPrograms(t *testing.T) {
	tests := []struct {
		prog    string
		want    string // pairs, predicted=measured/method
		wantUnM string
	}{
		{"jacas_e4", "2=1/main 3=2/path 4=3/path 5=4/path 6=5/path", ""},
		{"sor_e4", "2=1/main 3=2/path 4=3/path 5=4/path", ""},
		{"jac", "1=1/main", "2 3 4 5"},
	}
	for _, tt := range tests {
		t.Run(tt.prog, func(t *testing.T) {
			measured, predicted := storedRuns(t, tt.prog)
			c, err := compare.Compare(measured, predicted, compare.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if got := pairs(c); got != tt.want {
				t.Errorf("matches %s, want %s", got, tt.want)
			}
			if got := ids(c.UnmatchedMeasured); got != tt.wantUnM {
				t.Errorf("unmatched measured %q, want %q", got, tt.wantUnM)
			}
			if len(c.UnmatchedPredicted) > 1 {
				t.Errorf("unmatched predicted %v, want the program-level loop at most", c.UnmatchedPredicted)
			}
			if s := c.Summary; s.MAPECount != len(c.Matches) || math.IsNaN(s.MAPE) || math.IsInf(s.MAPE, 0) {
				t.Errorf("MAPE %v over %d of %d matches", s.MAPE, s.MAPECount, len(c.Matches))
			}
		})
	}
}
