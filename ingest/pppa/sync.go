package pppa

import (
	"fmt"

	"github.com/presage-dvm/presage/ingest/sts"
)

// Item numbers of the time records: entries 1..20, returns item+20.
const (
	numItems   = 20
	returnBase = 20
)

// itemOp is the operation class of an entry or return item.
func itemOp(item int) op {
	if item > numItems {
		item -= returnBase
	}
	return op(item / 4)
}

// events indexes one processor's time records by interval and item.
type events struct {
	recs []sts.TimeRecord
	// at[interval][item] = positions in recs, in event order.
	at map[int]map[int][]int
}

func indexEvents(recs []sts.TimeRecord) *events {
	e := &events{recs: recs, at: map[int]map[int][]int{}}
	for k, r := range recs {
		m := e.at[r.Interval]
		if m == nil {
			m = map[int][]int{}
			e.at[r.Interval] = m
		}
		m[r.Item] = append(m[r.Item], k)
	}
	return e
}

// startReturn finds, at or before position pos, the latest record of item
// with the given group pointer.
func (e *events) startReturn(pos, item int, grp uint64) (float64, bool) {
	for k := pos; k >= 0; k-- {
		if r := e.recs[k]; r.Item == item && r.Group == grp {
			return r.Time, true
		}
	}
	return 0, false
}

// checkPairs verifies that every kind has as many entries as returns in
// one processor's interval (docs/model.md §10.5).
func checkPairs(e *events, num int) error {
	m := e.at[num]
	for item := 1; item <= numItems; item++ {
		if item%4 != 1 && item%4 != 3 {
			continue // start operations record only their return
		}
		if len(m[item]) != len(m[item+returnBase]) {
			return fmt.Errorf("number of calls != number of returns interval=%d (operation item %d: %d entries, %d returns)",
				num, item, len(m[item]), len(m[item+returnBase]))
		}
	}
	return nil
}

// synchronize fills syn, var and overlap of a matched group's members
// from their time records (docs/model.md §10.5).
func synchronize(g group, ev []*events, vals [][]values, small bool) error {
	if !small {
		for _, mb := range g.members {
			if err := checkPairs(ev[mb.proc], mb.num); err != nil {
				return fmt.Errorf("processor %d: %w", mb.proc+1, err)
			}
		}
	}
	n := len(g.members)
	t := make([]float64, n)
	for item := 1; item <= numItems+returnBase; item++ {
		if item%4 != 1 && item%4 != 3 {
			continue
		}
		pos := make([][]int, n)
		m := -1
		for j, mb := range g.members {
			pos[j] = ev[mb.proc].at[mb.num][item]
			if m >= 0 && len(pos[j]) != m && !small {
				return fmt.Errorf("interval %d: number of synchro or variation times (operation item %d) not equivalent on other processors",
					mb.num, item)
			}
			if m < 0 || len(pos[j]) < m {
				m = len(pos[j])
			}
		}
		o := itemOp(item)
		isWait := item <= numItems-1 && item%4 == 3
		for k := 0; k < m; k++ {
			tmax := 0.0
			for j, mb := range g.members {
				t[j] = ev[mb.proc].recs[pos[j][k]].Time
				tmax = max(tmax, t[j])
			}
			if isWait {
				smax := 0.0
				for j, mb := range g.members {
					e := ev[mb.proc]
					r := e.recs[pos[j][k]]
					s, ok := e.startReturn(pos[j][k], item+19, r.Group)
					if !ok && !small {
						return fmt.Errorf("processor %d interval %d: number of call operations != number of wait operations (operation item %d)",
							mb.proc+1, mb.num, item)
					}
					smax = max(smax, s)
				}
				for j, mb := range g.members {
					if smax > 0 && t[j] > smax {
						vals[mb.proc][mb.num-1].ops[colOverlap][o] += t[j] - smax
					}
				}
			}
			for j, mb := range g.members {
				if tmax > t[j] {
					c := colSyn
					if item > numItems {
						c = colVar
					}
					vals[mb.proc][mb.num-1].ops[c][o] += tmax - t[j]
				}
			}
		}
	}
	return nil
}
