package sweep_test

import (
	"context"
	"testing"

	"github.com/presage-dvm/presage/sim/sweep"
)

// TestCountedPlanEstimatesAsListed: a counted plan (the dry run's) lists
// no configuration and estimates, in every shard, what the listing plan
// does, counting what Shard selects from the list.
func TestCountedPlanEstimatesAsListed(t *testing.T) {
	def := sweep.Definition{Grids: [][]int{{2}, {16}, {2, 2}, {8}}, TStart: []float64{1e-6, 2e-6, 3e-6}, Power: []float64{1, 2}}
	listed := testPlan(t, def)
	counted, err := sweep.NewCountedPlan(listed.Def, listed.Program, listed.Machines, listed.Options)
	if err != nil {
		t.Fatal(err)
	}
	if counted.Configs != nil {
		t.Fatalf("the counted plan listed %d configurations", len(counted.Configs))
	}
	for _, shard := range [][2]int{{0, 0}, {0, 4}, {1, 4}, {3, 4}, {5, 7}, {6, 7}, {2, 40}} {
		want, err := listed.EstimateRows(context.Background(), shard[0], shard[1])
		if err != nil {
			t.Fatal(err)
		}
		got, err := counted.EstimateRows(context.Background(), shard[0], shard[1])
		if err != nil {
			t.Fatal(err)
		}
		if got != want {
			t.Errorf("shard %d/%d: counted %+v, listed %+v", shard[0], shard[1], got, want)
		}
		// The groups count what Shard selects from the list, and the
		// sample is the first of them.
		sel, err := sweep.Shard(listed.Configs, shard[0], shard[1])
		if err != nil {
			t.Fatal(err)
		}
		if got.Configs != len(sel) || len(sel) > 0 && got.Sample != listed.Describe(sel[0]) || got.Calls != int64(len(sel))*int64(listed.Program.Calls()) {
			t.Errorf("shard %d/%d: %d configurations, sample %q; Shard selects %d from %v", shard[0], shard[1], got.Configs, got.Sample, len(sel), sel)
		}
	}
	if _, err := counted.EstimateRows(context.Background(), 4, 4); err == nil {
		t.Error("shard 4/4 accepted")
	}
}
