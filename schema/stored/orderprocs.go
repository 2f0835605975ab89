package stored

import (
	"cmp"
	"math"
	"slices"
)

// SumOrderProcs sums orders by procedure as a run stores them
// (OrderProc, by name): their number, their running time (end −
// start − wait), and the mean and standard deviation of their durations
// (end − start); the critical path's time is left 0.
func SumOrderProcs(events []OrderEvent) []OrderProc {
	type sum struct {
		p        OrderProc
		mean, m2 float64
	}
	byName := map[string]*sum{}
	for _, e := range events {
		s := byName[e.Proc]
		if s == nil {
			s = &sum{p: OrderProc{Proc: e.Proc}}
			byName[e.Proc] = s
		}
		s.p.Orders++
		d := e.End - e.Start
		s.p.Work += d - e.Wait
		// Welford's update: a long run of close durations does not cancel out.
		dev := d - s.mean
		s.mean += dev / float64(s.p.Orders)
		s.m2 += dev * (d - s.mean)
	}
	out := make([]OrderProc, 0, len(byName))
	for _, s := range byName {
		s.p.MeanDuration, s.p.SDDuration = s.mean, math.Sqrt(s.m2/float64(s.p.Orders))
		out = append(out, s.p)
	}
	slices.SortFunc(out, func(a, b OrderProc) int { return cmp.Compare(a.Proc, b.Proc) })
	return out
}
