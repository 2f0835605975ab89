package reality

import (
	"fmt"
	"math"
	"slices"
)

// Bound is the largest error a prediction may have on the workers the
// verdict bounds (Rule.BoundedWorkers): fixed, not widened by the
// machine's noise, which more runs and a calibration that repeats itself
// must fight instead.
const Bound = 0.10

// Gap is a known gap of the model: a program and size whose predictions
// are off for a reason the model does not have yet, checked against its
// own stated bound rather than Bound, so that a gap that widens still
// fails.
type Gap struct {
	Reason string
	Bound  float64 // the largest error the gap is stated to have
}

// Rule is what the verdict asks of the figures.
type Rule struct {
	Bound float64 // on the figures of at most BoundedWorkers workers
	// BoundedWorkers is the most workers a bounded figure has; figures of
	// more workers are counted and shown but not bounded.
	BoundedWorkers int
	// MinChecks is how many of a figure's independent checks must count
	// (the machine gave their runs the cores) for the figure to count.
	MinChecks int
	// MinCounted is how many figures must count for the verdict to hold
	// at all: a check whose figures were dropped for a loaded machine
	// says nothing, and must not pass with "0 of 0".
	MinCounted int
	// Gaps are the known gaps, by "program n=size".
	Gaps map[string]Gap
}

// Verdict is the outcome of a reality check's figures under a Rule.
type Verdict struct {
	Medians  []Figure // of every figure that counted, its median check
	Counted  int      // figures with enough checks counted
	Dropped  int      // figures with too few
	Within   int      // counted figures within Rule.Bound
	Failures []string // what breaks the rule, empty when it holds
	// Misses are the failures that are a figure beyond its bound (Rule.Bound,
	// or its known gap's); the others are too few figures counted.
	Misses []string
	Notes  []string // the known gaps and the unbounded figures, as they stand
}

// Judge returns the verdict on checks: for each figure (program, size,
// placement, workers), the independent checks of it that counted.
func Judge(checks [][]Figure, rule Rule) Verdict {
	var v Verdict
	for _, figs := range checks {
		if len(figs) < max(rule.MinChecks, 1) {
			v.Dropped++
			continue
		}
		m := Median(figs)
		v.Medians = append(v.Medians, m)
		v.Counted++
		if math.Abs(m.Error()) <= rule.Bound {
			v.Within++
		}
		v.judgeFigure(m, rule)
	}
	if v.Counted < rule.MinCounted {
		v.Failures = append(v.Failures, fmt.Sprintf("only %d figures counted (%d dropped: the machine did not give the runs their cores), fewer than the %d the check needs: run it alone on the machine",
			v.Counted, v.Dropped, rule.MinCounted))
	}
	return v
}

// judgeFigure checks one median figure against the bound that applies to
// it: its known gap's, Bound up to BoundedWorkers, none beyond.
func (v *Verdict) judgeFigure(m Figure, rule Rule) {
	err := math.Abs(m.Error())
	name := fmt.Sprintf("%s n=%d", m.Program, m.Size)
	if gap, ok := rule.Gaps[name]; ok {
		switch {
		case err > gap.Bound:
			miss := fmt.Sprintf("median %v: off by more than the %.0f%% of its known gap (%s)", m, 100*gap.Bound, gap.Reason)
			v.Failures = append(v.Failures, miss)
			v.Misses = append(v.Misses, miss)
		case err <= rule.Bound:
			v.Notes = append(v.Notes, fmt.Sprintf("median %v: within %.0f%% although a known gap: is the gap closed?", m, 100*rule.Bound))
		default:
			v.Notes = append(v.Notes, fmt.Sprintf("median %v: a known gap, within its %.0f%%", m, 100*gap.Bound))
		}
		return
	}
	switch {
	case m.Workers > rule.BoundedWorkers:
		v.Notes = append(v.Notes, fmt.Sprintf("median %v: not bounded beyond %d workers", m, rule.BoundedWorkers))
	case err > rule.Bound:
		miss := fmt.Sprintf("median %v: off by more than %.0f%%", m, 100*rule.Bound)
		v.Failures = append(v.Failures, miss)
		v.Misses = append(v.Misses, miss)
	}
}

// Hard are the failures that are not Misses: too few figures counted.
func (v Verdict) Hard() []string {
	var out []string
	for _, f := range v.Failures {
		if !slices.Contains(v.Misses, f) {
			out = append(out, f)
		}
	}
	return out
}

// Summary is the verdict's one line of figures, tracked from one stop to
// the next: "within 10%: N of M figures".
func (v Verdict) Summary(bound float64) string {
	return fmt.Sprintf("within %.0f%%: %d of %d figures (%d dropped)", 100*bound, v.Within, v.Counted, v.Dropped)
}
