package machine

import (
	"slices"
	"testing"
)

// TestBusyNeighbours: a run's processes take the processors in Leaves'
// order, and each has as busy neighbours the others of the run on its
// node (its parent cluster), whatever the depth of the tree.
func TestBusyNeighbours(t *testing.T) {
	node := func(name string, procs int) *Node {
		n := &Node{Name: name}
		for range procs {
			n.Children = append(n.Children, &Node{Name: name + "p", Power: 1})
		}
		return n
	}
	// Two nodes of two processors, then one of three beside a lone
	// processor at the root.
	m := &Machine{Root: &Node{Name: "c", Children: []*Node{node("a", 2), node("b", 2)}}}
	uneven := &Machine{Root: &Node{Name: "c", Children: []*Node{node("a", 3), {Name: "lone", Power: 1}}}}
	for _, c := range []struct {
		m    *Machine
		n    int
		want []int
	}{
		{m, 1, []int{0}},
		{m, 2, []int{1, 1}},
		{m, 3, []int{1, 1, 0}},
		{m, 4, []int{1, 1, 1, 1}},
		{m, 9, []int{1, 1, 1, 1}}, // no more processes than processors
		{uneven, 4, []int{2, 2, 2, 0}},
	} {
		if got := c.m.BusyNeighbours(c.n); !slices.Equal(got, c.want) {
			t.Errorf("%d processes: busy neighbours %v, want %v", c.n, got, c.want)
		}
	}
}
