package stage_test

import (
	"math"
	"testing"

	"github.com/presage-dvm/presage/internal/stage"
	"github.com/presage-dvm/presage/schema/stored"
	"github.com/presage-dvm/presage/sim/search"
)

// outcomes of a made-up sweep: time falls with processors until 8, then
// rises; efficiency falls throughout. Cost = time x procs.
var outcomes = []stored.Outcome{
	{Index: 0, RunID: 1, Grid: "1", Procs: 1, Time: 8, Efficiency: 1},      // cost 8
	{Index: 1, RunID: 2, Grid: "2", Procs: 2, Time: 4.2, Efficiency: 0.95}, // cost 8.4
	{Index: 2, RunID: 3, Grid: "4", Procs: 4, Time: 2.5, Efficiency: 0.8},  // cost 10
	{Index: 3, RunID: 4, Grid: "2x2", Procs: 4, Time: 2.2, Efficiency: 0.9},
	{Index: 4, RunID: 5, Grid: "8", Procs: 8, Time: 1.6, Efficiency: 0.6},
	{Index: 5, RunID: 6, Grid: "16", Procs: 16, Time: 1.9, Efficiency: 0.3},
	{Index: 6, RunID: 7, Grid: "32", Procs: 32, Time: math.NaN(), Efficiency: math.NaN()},
}

func TestAnswer(t *testing.T) {
	grid := func(o *stored.Outcome) string {
		if o == nil {
			return "none"
		}
		return o.Grid
	}
	for _, tc := range []struct {
		name                                       string
		c                                          stage.Constraints
		met                                        int
		fastest, cheapest, efficient, fewest, most string
		perCount                                   []string
	}{
		{"no limits", stage.Constraints{}, 6, "8", "1", "1", "1", "16", []string{"1", "2", "2x2", "8", "16"}},
		{"deadline", stage.Constraints{Deadline: 2.5}, 4, "8", "2x2", "2x2", "2x2", "16", []string{"2x2", "8", "16"}},
		{"efficiency floor", stage.Constraints{MinEfficiency: 0.6}, 5, "8", "1", "1", "1", "8", []string{"1", "2", "2x2", "8"}},
		{"both", stage.Constraints{Deadline: 3, MinEfficiency: 0.7}, 2, "2x2", "2x2", "2x2", "2x2", "2x2", []string{"2x2"}},
		{"none meets", stage.Constraints{Deadline: 1}, 0, "none", "none", "none", "none", "none", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := stage.Answer(outcomes, tc.c, search.Time)
			if a.Evaluated != len(outcomes) || a.Met != tc.met || len(a.Ranked) != tc.met {
				t.Fatalf("evaluated %d, met %d, ranked %d; want %d, %d", a.Evaluated, a.Met, len(a.Ranked), len(outcomes), tc.met)
			}
			got := []string{grid(a.Fastest), grid(a.Cheapest), grid(a.MostEfficient), grid(a.FewestProcs), grid(a.MostProcs)}
			want := []string{tc.fastest, tc.cheapest, tc.efficient, tc.fewest, tc.most}
			for i, q := range []string{"fastest", "cheapest", "most efficient", "fewest processors", "most processors"} {
				if got[i] != want[i] {
					t.Errorf("%s: %s, want %s", q, got[i], want[i])
				}
			}
			var per []string
			for _, o := range a.PerCount {
				per = append(per, o.Grid)
			}
			if len(per) != len(tc.perCount) {
				t.Fatalf("per count %v, want %v", per, tc.perCount)
			}
			for i := range per {
				if per[i] != tc.perCount[i] {
					t.Errorf("per count %v, want %v", per, tc.perCount)
				}
			}
		})
	}
}

func TestAnswerRanksByObjective(t *testing.T) {
	for _, tc := range []struct {
		obj  search.Objective
		want []int64 // run ids
	}{
		{search.Time, []int64{5, 6, 4, 3, 2, 1}},
		{search.Cost, []int64{1, 2, 4, 3, 5, 6}},
		{search.Efficiency, []int64{1, 2, 4, 3, 5, 6}},
	} {
		a := stage.Answer(outcomes, stage.Constraints{}, tc.obj)
		for i, o := range a.Ranked {
			if o.RunID != tc.want[i] {
				t.Errorf("%s: rank %d is run %d, want %d", tc.obj, i+1, o.RunID, tc.want[i])
			}
		}
	}
}
