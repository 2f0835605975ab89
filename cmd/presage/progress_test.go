package main

import (
	"testing"
	"time"

	"github.com/presage-dvm/presage/internal/stage"
)

// TestSweepETAProgress: the progress line's estimate is the stage's
// cost-weighted one when it has one, else extrapolated from the count,
// in the same words either way.
func TestSweepETAProgress(t *testing.T) {
	tests := []struct {
		name string
		p    stage.Progress
		want string
	}{
		{"cost-weighted", stage.Progress{Done: 1, Total: 11, Elapsed: 90 * time.Second, Left: 80 * time.Second}, ", about 1m20s left"},
		{"from the count", stage.Progress{Done: 1, Total: 11, Elapsed: 90 * time.Second}, ", about 15m0s left"},
		{"done", stage.Progress{Done: 11, Total: 11, Elapsed: 90 * time.Second, Left: time.Second}, ""},
		{"nothing yet", stage.Progress{Total: 11}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := sweepETA(tt.p); got != tt.want {
				t.Errorf("sweepETA = %q, want %q", got, tt.want)
			}
		})
	}
}
