package storetest

import (
	"testing"

	"github.com/presage-dvm/presage/sim/result"
)

func TestRoundTrip(t *testing.T) {
	db := Open(t)
	if n := Count(t, db, "runs"); n != 0 {
		t.Fatalf("new store: %d runs, want an empty store", n)
	}
	run := &result.Run{Kind: result.Measured, Program: "jac", Config: result.Config{Grid: []int{2, 2}},
		Intervals: []*result.Interval{{ID: 1, Type: result.Main, Count: 1, Line: 3, File: "jac.fdv"}}}
	run.Intervals[0].Values[result.ExecutionTime] = 1.5
	got := RoundTrip(t, run)
	if run.ID == 0 || got.ID != run.ID || got.Program != "jac" || len(got.Intervals) != 1 ||
		got.Intervals[0].Values[result.ExecutionTime] != 1.5 || result.GridString(got.Config.Grid) != "2x2" {
		t.Errorf("round trip gave %+v", got)
	}
	if n := Count(t, db, "runs"); n != 0 {
		t.Errorf("RoundTrip wrote %d runs into the caller's store", n)
	}
	Save(t, db, run)
	if n := Count(t, db, "intervals"); n != 1 {
		t.Errorf("%d intervals stored, want 1", n)
	}
}
