package stage

import (
	"cmp"
	"math"
	"slices"

	"github.com/presage-dvm/presage/schema/stored"
	"github.com/presage-dvm/presage/sim/search"
)

// Constraints are the limits a planning question puts on a configuration.
// A zero field sets no limit.
type Constraints struct {
	Deadline      float64 // the longest execution time (s)
	MinEfficiency float64 // the lowest parallel efficiency
}

// Meets reports whether o satisfies every limit. A time that is not a
// number meets none (it cannot be compared with the others).
func (c Constraints) Meets(o stored.Outcome) bool {
	return !math.IsNaN(o.Time) && (c.Deadline <= 0 || o.Time <= c.Deadline) &&
		(c.MinEfficiency <= 0 || o.Efficiency >= c.MinEfficiency)
}

// Answers are the planning questions answered over a set of evaluated
// configurations: every answer is among the configurations that meet the
// constraints, and is nil when none does.
type Answers struct {
	Fastest       *stored.Outcome
	Cheapest      *stored.Outcome // fewest processor-seconds
	MostEfficient *stored.Outcome
	// FewestProcs is the configuration of fewest processors (the fastest
	// of those): the smallest machine for a deadline.
	FewestProcs *stored.Outcome
	// MostProcs is the configuration of most processors (the fastest of
	// those): the largest count an efficiency floor allows.
	MostProcs *stored.Outcome
	// PerCount holds the fastest configuration of each processor count,
	// by increasing count; at one count the fastest is also the cheapest.
	PerCount []stored.Outcome
	// Ranked are the configurations meeting the constraints, best first by
	// the objective.
	Ranked []stored.Outcome
	// Evaluated counts the configurations answered from, Met those of them
	// meeting the constraints.
	Evaluated, Met int
}

// Answer answers the planning questions over outs, ranking by obj.
func Answer(outs []stored.Outcome, c Constraints, obj search.Objective) Answers {
	a := Answers{Evaluated: len(outs)}
	for _, o := range outs {
		if c.Meets(o) {
			a.Ranked = append(a.Ranked, o)
		}
	}
	a.Met = len(a.Ranked)
	if a.Met == 0 {
		return a
	}
	first := func(obj search.Objective) *stored.Outcome {
		o := slices.MinFunc(a.Ranked, func(x, y stored.Outcome) int { return byObjective(x, y, obj) })
		return &o
	}
	a.Fastest, a.Cheapest, a.MostEfficient = first(search.Time), first(search.Cost), first(search.Efficiency)
	// The fastest of the fewest and of the most processors head and end
	// the counts.
	a.PerCount = perCount(a.Ranked)
	a.FewestProcs, a.MostProcs = &a.PerCount[0], &a.PerCount[len(a.PerCount)-1]
	slices.SortFunc(a.Ranked, func(x, y stored.Outcome) int { return byObjective(x, y, obj) })
	return a
}

// byObjective orders two outcomes by the objective, ties by time, then
// processors, then position in the sweep, so every answer is reproducible.
func byObjective(x, y stored.Outcome, obj search.Objective) int {
	var c int
	switch obj {
	case search.Efficiency:
		c = cmp.Compare(y.Efficiency, x.Efficiency)
	case search.Cost:
		c = cmp.Compare(x.Cost(), y.Cost())
	}
	return cmp.Or(c, cmp.Compare(x.Time, y.Time), cmp.Compare(x.Procs, y.Procs), cmp.Compare(x.Index, y.Index))
}

// perCount returns the fastest outcome of each processor count.
func perCount(outs []stored.Outcome) []stored.Outcome {
	l := slices.Clone(outs)
	slices.SortFunc(l, func(x, y stored.Outcome) int {
		return cmp.Or(cmp.Compare(x.Procs, y.Procs), byObjective(x, y, search.Time))
	})
	return slices.CompactFunc(l, func(x, y stored.Outcome) bool { return x.Procs == y.Procs })
}
