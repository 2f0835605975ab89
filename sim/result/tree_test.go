package result

import (
	"strings"
	"testing"
)

func TestCheckTree(t *testing.T) {
	mk := func() *Run {
		return &Run{Intervals: []*Interval{
			{ID: 1, Children: []int{2, 4}},
			{ID: 2, Parent: 1, Children: []int{3}},
			{ID: 3, Parent: 2},
			{ID: 4, Parent: 1},
		}}
	}
	tests := []struct {
		name string
		edit func(*Run)
		want string // "" = valid
	}{
		{"valid", func(*Run) {}, ""},
		{"empty", func(r *Run) { r.Intervals = nil }, "no intervals"},
		{"root has parent", func(r *Run) { r.Intervals = r.Intervals[1:] }, "first interval 2 has parent 1"},
		{"duplicate", func(r *Run) { r.Intervals[3].ID = 3 }, "interval 3 listed twice"},
		{"missing child", func(r *Run) { r.Intervals[2].Children = []int{9} }, "child 9, which is not in the run"},
		{"wrong parent", func(r *Run) { r.Intervals[3].Parent = 2 }, "interval 4 is a child of 1 but names parent 2"},
		{"unreachable", func(r *Run) { r.Intervals[0].Children = []int{2} }, "1 of 4 intervals are not reachable"},
		{"child twice", func(r *Run) { r.Intervals[1].Children = []int{3, 3} }, "more than once"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := mk()
			tt.edit(r)
			err := r.CheckTree()
			if tt.want == "" && err != nil || tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)) {
				t.Errorf("CheckTree() = %v, want %q", err, tt.want)
			}
		})
	}
}
