package stage_test

import (
	"context"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/presage-dvm/presage/internal/golden"
	"github.com/presage-dvm/presage/internal/stage"
	"github.com/presage-dvm/presage/internal/sweeptest"
	"github.com/presage-dvm/presage/schema/store"
	"github.com/presage-dvm/presage/sim/result"
	"github.com/presage-dvm/presage/sim/sweep"
)

// TestTrailingOnesEquivalent backs sweep.Distinct: on every real trace, a
// grid with trailing dimensions of size 1 gives exactly the shorter
// grid's values, interval by interval and processor by processor.
func TestTrailingOnesEquivalent(t *testing.T) {
	traces, err := filepath.Glob(filepath.Join(golden.Dir(t), "data", "traces", "*.ptr"))
	if err != nil || len(traces) == 0 {
		t.Fatalf("no real traces (%v)", err)
	}
	st, _ := sweeptest.Store(t, "grids.db", traces, []string{golden.Path(t, "machines", "Predictor.par")})
	ctx := context.Background()
	infos, err := st.Traces()
	if err != nil {
		t.Fatal(err)
	}
	for _, tr := range infos {
		for _, pair := range [][2][]int{{{1}, {1, 1}}, {{2}, {2, 1}}, {{2, 2}, {2, 2, 1}}, {{4}, {4, 1, 1}}} {
			short, long := predict(t, ctx, st, tr.Name, pair[0]), predict(t, ctx, st, tr.Name, pair[1])
			if len(short.Intervals) != len(long.Intervals) {
				t.Fatalf("%s: %d intervals on %v, %d on %v", tr.Name, len(short.Intervals), pair[0], len(long.Intervals), pair[1])
			}
			for i := range short.Intervals {
				a, b := short.Intervals[i], long.Intervals[i]
				if a.Values != b.Values || !reflect.DeepEqual(a.Procs, b.Procs) {
					t.Errorf("%s: interval %d differs between %v and %v", tr.Name, a.ID, pair[0], pair[1])
				}
			}
		}
	}
	if got := sweep.Distinct([][]int{{1}, {1, 1}, {2, 1}, {1, 2}, {2, 2, 1}, {2, 1, 2}}); !reflect.DeepEqual(got, [][]int{{1}, {1, 2}, {2, 1, 2}}) {
		t.Errorf("Distinct = %v", got)
	}
}

func predict(t *testing.T, ctx context.Context, st *store.Store, trace string, grid []int) *result.Run {
	t.Helper()
	run, err := stage.PredictOne(ctx, st, stage.PredictRequest{Trace: trace, Machine: "Predictor", Config: result.Config{Grid: grid}})
	if err != nil {
		t.Fatalf("%s on %v: %v", trace, grid, err)
	}
	return run
}
