package orders

import (
	"cmp"
	"slices"

	"github.com/presage-dvm/presage/sim/ordertrace"
)

// renumber returns the recorded orders numbered in the order an
// as-soon-as-possible run makes them (unlimited computers, free
// transfers), ties kept in the order of the recording.
//
// A sequential recording numbers depth first: a parent's second child
// comes after the whole subtree of its first. A simulator reads orders as
// they are made, and a parallel run makes the second child long before the
// first one's subtree, so in recording order it would have to read ahead
// and hold that subtree. In as-soon-as-possible order it reads about as
// far as the run has got. Both are creation orders: a child is made no
// earlier than its parent, and an order's children in the order it makes
// them.
func renumber(rec []*recorded) []*ordertrace.Order {
	type made struct {
		at  float64
		seq int
	}
	keys := make([]made, len(rec))
	for i, r := range rec {
		keys[i] = made{at: r.asap, seq: i}
	}
	slices.SortFunc(keys, func(a, b made) int {
		return cmp.Or(cmp.Compare(a.at, b.at), cmp.Compare(a.seq, b.seq))
	})
	newID := make([]int64, len(rec)+1) // by recording id
	for i, k := range keys {
		newID[k.seq+1] = int64(i + 1)
	}
	out := make([]*ordertrace.Order, len(rec))
	for _, k := range keys {
		o := rec[k.seq].tr
		o.ID, o.Parent = newID[o.ID], newID[o.Parent]
		for j := range o.Requests {
			o.Requests[j].Order = newID[o.Requests[j].Order]
		}
		out[o.ID-1] = o
	}
	return out
}
