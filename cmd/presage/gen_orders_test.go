package main

import "testing"

// TestGenOrdersNearestSize checks that gen orders makes the shape's count
// nearest to --orders, and that the shapes' own flags set their sizes.
func TestGenOrdersNearestSize(t *testing.T) {
	tests := []struct {
		cmd  genOrdersCmd
		want int64
	}{
		{genOrdersCmd{Shape: "dac", Orders: 1000, Stages: 4, Workers: 64}, 1023}, // not 511
		{genOrdersCmd{Shape: "dac", Orders: 700, Stages: 4, Workers: 64}, 511},
		{genOrdersCmd{Shape: "dac", Orders: 4095, Stages: 4, Workers: 64}, 4095},
		{genOrdersCmd{Shape: "dac", Orders: 1, Stages: 4, Workers: 64}, 1},
		{genOrdersCmd{Shape: "pipeline", Orders: 1000, Stages: 4, Workers: 64}, 1001},
		{genOrdersCmd{Shape: "pipeline", Orders: 1000, Stages: 10, Workers: 64}, 1001},
		{genOrdersCmd{Shape: "pipeline", Orders: 2, Stages: 4, Workers: 64}, 5}, // at least one item
		{genOrdersCmd{Shape: "master", Orders: 1000, Stages: 4, Workers: 64}, 1025},
		{genOrdersCmd{Shape: "master", Orders: 1000, Stages: 4, Workers: 8, Rounds: 3}, 25}, // --rounds wins
		{genOrdersCmd{Shape: "master", Orders: 100, Stages: 4, Workers: 8}, 97},
	}
	for _, tt := range tests {
		opt, err := tt.cmd.options()
		if err != nil {
			t.Errorf("%+v: %v", tt.cmd, err)
			continue
		}
		if got := opt.Count(); got != tt.want {
			t.Errorf("%s --orders %d: %d orders, want %d", tt.cmd.Shape, tt.cmd.Orders, got, tt.want)
		}
	}
	for _, bad := range []genOrdersCmd{
		{Shape: "dac", Orders: 0, Stages: 1, Workers: 1},
		{Shape: "pipeline", Orders: 10, Stages: 0, Workers: 1},
		{Shape: "master", Orders: 10, Stages: 1, Workers: 1, Rounds: -1},
	} {
		if _, err := bad.options(); err == nil {
			t.Errorf("%+v: accepted", bad)
		}
	}
}
