package ordersim

import (
	"math"
	"slices"
	"strings"
)

// names numbers the procedures of a trace, so that a live order and a
// link of the critical path name theirs in 4 bytes and no pointer. A
// trace names few procedures, and consecutive lines often the same one:
// the last found is tried first, then the few first by scanning, from an
// array inside the engine, so that small traces allocate nothing; a map
// is made only past them.
type names struct {
	list  []string
	small [8]string
	index map[string]int32
	last  int32
}

// number returns the number of procedure s, filing it the first time.
func (n *names) number(s string) int32 {
	if int(n.last) < len(n.list) && n.list[n.last] == s {
		return n.last
	}
	if n.index == nil {
		if i := slices.Index(n.list, s); i >= 0 {
			n.last = int32(i)
			return n.last
		}
		if n.list == nil {
			n.list = n.small[:0]
		}
		if len(n.list) < len(n.small) {
			n.list = append(n.list, s)
			n.last = int32(len(n.list) - 1)
			return n.last
		}
		n.index = make(map[string]int32, 2*len(n.small))
		for i, p := range n.list {
			n.index[p] = int32(i)
		}
	}
	i, ok := n.index[s]
	if !ok {
		i = int32(len(n.list))
		n.list = append(n.list, s)
		n.index[s] = i
	}
	n.last = i
	return i
}

// name returns the procedure numbered i.
func (n *names) name(i int32) string { return n.list[i] }

// procSum accumulates the orders of one procedure: their number, their
// work, and the mean and the sum of squared deviations of their
// durations (Welford's update, which a long run of close values does not
// cancel out).
type procSum struct {
	orders   int64
	work     float64
	mean, m2 float64
}

// sumProc adds finished order l to its procedure's sums: it started at
// l.madeAt and waited l.wait() since (the moments and the sums of
// times, which OnOrder reports, exactly).
func (e *engine) sumProc(l *live) {
	for int(l.proc) >= len(e.sums) {
		e.sums = append(e.sums, procSum{})
	}
	s := &e.sums[l.proc]
	s.orders++
	d := e.now - l.madeAt
	s.work += d - l.wait() // its stretches: it ran whenever it did not wait
	dev := d - s.mean
	s.mean += dev / float64(s.orders)
	s.m2 += dev * (d - s.mean)
}

// procStats returns the sums of every procedure, by name; pathTime is
// the critical path's run time of each, by number (nil without the
// path).
func (e *engine) procStats(pathTime []float64) []ProcStats {
	out := make([]ProcStats, 0, len(e.sums))
	for i, s := range e.sums {
		if s.orders == 0 {
			continue
		}
		p := ProcStats{Proc: e.procs.name(int32(i)), Orders: s.orders, Work: s.work,
			MeanDuration: s.mean, SDDuration: math.Sqrt(s.m2 / float64(s.orders))}
		if i < len(pathTime) {
			p.PathTime = pathTime[i]
		}
		out = append(out, p)
	}
	slices.SortFunc(out, func(a, b ProcStats) int { return strings.Compare(a.Proc, b.Proc) })
	return out
}
