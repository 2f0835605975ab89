package htmlreport

import "github.com/presage-dvm/presage/sim/result"

// targets are the interval IDs the navigation links of a section point to.
type targets struct{ Up, Prev, Next, Home int }

// navigation computes the links of the original report (docs/model.md §8.1
// item 7) for the sections of the subtree of root. The first section's UP
// and HOME point to interval 1 (Main) and its PREV/NEXT to its last/first
// child; a child's UP is its parent, and PREV/NEXT go to its siblings,
// falling back to the parent at either end.
func navigation(run *result.Run, root *result.Interval) map[int]targets {
	first, last := root.ID, root.ID
	if n := len(root.Children); n > 0 {
		first, last = root.Children[0], root.Children[n-1]
	}
	nav := map[int]targets{root.ID: {Up: 1, Prev: last, Next: first, Home: 1}}
	for _, iv := range run.Subtree(root.ID) {
		kids := iv.Children
		for i, c := range kids {
			t := targets{Up: iv.ID, Prev: iv.ID, Next: iv.ID, Home: 1}
			if i > 0 {
				t.Prev = kids[i-1]
			}
			if i < len(kids)-1 {
				t.Next = kids[i+1]
			}
			nav[c] = t
		}
	}
	return nav
}
