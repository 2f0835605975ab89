package result

import "fmt"

// CheckTree verifies that the intervals form one tree listed from its
// root: Intervals[0] has no parent, IDs are unique, every child exists and
// names its parent, and every interval is reachable from the root. Exports
// rely on it before walking the tree.
func (r *Run) CheckTree() error {
	if len(r.Intervals) == 0 {
		return fmt.Errorf("run %d: no intervals", r.ID)
	}
	if root := r.Intervals[0]; root.Parent != 0 {
		return fmt.Errorf("run %d: first interval %d has parent %d (expected the root, without parent)", r.ID, root.ID, root.Parent)
	}
	byID := make(map[int]*Interval, len(r.Intervals))
	for _, iv := range r.Intervals {
		if byID[iv.ID] != nil {
			return fmt.Errorf("run %d: interval %d listed twice", r.ID, iv.ID)
		}
		byID[iv.ID] = iv
	}
	reached := 0
	stack := []*Interval{r.Intervals[0]}
	for len(stack) > 0 {
		iv := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if reached++; reached > len(r.Intervals) {
			return fmt.Errorf("run %d: the interval tree reaches interval %d more than once", r.ID, iv.ID)
		}
		for _, c := range iv.Children {
			child := byID[c]
			if child == nil {
				return fmt.Errorf("run %d: interval %d has child %d, which is not in the run", r.ID, iv.ID, c)
			}
			if child.Parent != iv.ID {
				return fmt.Errorf("run %d: interval %d is a child of %d but names parent %d", r.ID, c, iv.ID, child.Parent)
			}
			stack = append(stack, child)
		}
	}
	if reached != len(r.Intervals) {
		return fmt.Errorf("run %d: %d of %d intervals are not reachable from the root interval %d",
			r.ID, len(r.Intervals)-reached, len(r.Intervals), r.Intervals[0].ID)
	}
	return nil
}
