package ordercompare

import (
	"cmp"
	"errors"
	"fmt"
	"slices"

	"github.com/presage-dvm/presage/schema/stored"
)

// tree is the tree of orders of one run's per-order rows.
type tree struct {
	ev   []stored.OrderEvent
	main int             // index of the order without a parent
	kids map[int64][]int // by parent's order number: its children's indexes, by place
	size []int           // orders in the subtree of each, itself included
}

// newTree checks that events form one tree — one main order (parent 0),
// every other's parent among them, one order per place among a parent's
// children — and builds it.
func newTree(events []stored.OrderEvent) (*tree, error) {
	if len(events) == 0 {
		return nil, errors.New("no per-order rows (a simulation of more orders than --max-events, or a real run that did not record its schedule)")
	}
	t := &tree{ev: events, main: -1, kids: map[int64][]int{}, size: make([]int, len(events))}
	index := make(map[int64]int, len(events))
	for i, e := range events {
		if _, dup := index[e.Order]; dup {
			return nil, fmt.Errorf("order %d has two per-order rows", e.Order)
		}
		index[e.Order] = i
		if e.Parent == 0 {
			if t.main >= 0 {
				return nil, fmt.Errorf("orders %d and %d both have no parent (rows stored before schema 13 have no tree)", events[t.main].Order, e.Order)
			}
			t.main = i
			continue
		}
		t.kids[e.Parent] = append(t.kids[e.Parent], i)
	}
	for parent, kids := range t.kids {
		if _, ok := index[parent]; !ok {
			return nil, fmt.Errorf("order %d's parent %d has no per-order row", events[kids[0]].Order, parent)
		}
		slices.SortFunc(kids, func(a, b int) int { return cmp.Compare(events[a].Child, events[b].Child) })
		for j := 1; j < len(kids); j++ {
			if events[kids[j]].Child == events[kids[j-1]].Child {
				return nil, fmt.Errorf("orders %d and %d are both child %d of order %d", events[kids[j-1]].Order, events[kids[j]].Order,
					events[kids[j]].Child, parent)
			}
		}
	}
	// Every order reached from main, once: the subtree sizes, children
	// after parents in order, summed back.
	order := make([]int, 0, len(events))
	if t.main >= 0 {
		order = append(order, t.main)
	}
	for k := 0; k < len(order); k++ {
		order = append(order, t.kids[events[order[k]].Order]...)
	}
	if len(order) != len(events) {
		return nil, fmt.Errorf("%d of the %d orders descend from no main order", len(events)-len(order), len(events))
	}
	for k := len(order) - 1; k >= 0; k-- {
		i := order[k]
		t.size[i]++
		if e := events[i]; e.Parent != 0 {
			t.size[index[e.Parent]] += t.size[i]
		}
	}
	return t, nil
}

// unmatched is order i as the root of an unmatched subtree.
func (t *tree) unmatched(i int, reason string) Unmatched {
	return Unmatched{Order: t.ev[i], Subtree: t.size[i], Reason: reason}
}
