package comparereport

import (
	"fmt"
	"strconv"

	"github.com/presage-dvm/presage/internal/ordercompare"
	"github.com/presage-dvm/presage/sim/compare"
)

// Report is a comparison to write: the two runs matched interval by
// interval and, for two orders runs, order by order.
type Report struct {
	*compare.Comparison
	// Orders is nil unless both runs are orders runs.
	Orders *ordercompare.Comparison
	// Worst is how many matched orders are listed, those whose durations
	// differ most first; it also bounds the unmatched orders listed.
	Worst int
}

// The order-by-order part, shared by the text and HTML outputs.

// orderSide describes a side of the orders comparison in a row: its run,
// rule, nodes (workers of a real run), orders with rows and makespan.
func orderSide(what string, s ordercompare.Side) []string {
	rule := s.Scheduler
	if s.Migrate {
		rule += " with migration"
	}
	nodes := strconv.Itoa(s.Nodes) + " nodes"
	if what == "measured" {
		nodes = strconv.Itoa(s.Nodes) + " workers"
	}
	return []string{what, "run " + strconv.FormatInt(s.RunID, 10), rule, nodes, strconv.Itoa(s.Orders) + " orders", num(s.Makespan)}
}

// procRow is a procedure's row: orders on each side and matched, mean
// duration and work on each side with the relative error.
func procRow(p ordercompare.Proc) []string {
	return []string{p.Name, strconv.FormatInt(p.Measured.Orders, 10), strconv.FormatInt(p.Predicted.Orders, 10), strconv.Itoa(p.Matched),
		num(p.MeanDuration.Measured), num(p.MeanDuration.Predicted), pct(p.MeanDuration.RelErr),
		num(p.Work.Measured), num(p.Work.Predicted), pct(p.Work.RelErr)}
}

var procHeader = []string{"Procedure", "Orders meas", "Orders pred", "Matched", "Mean duration meas", "Mean duration pred", "Rel error",
	"Work meas", "Work pred", "Rel error"}

// orderRow is a matched order's row.
func orderRow(m ordercompare.Match) []string {
	return []string{strconv.FormatInt(m.Measured.Order, 10), strconv.FormatInt(m.Predicted.Order, 10), m.Measured.Proc,
		strconv.Itoa(m.Measured.Node), strconv.Itoa(m.Predicted.Node), num(m.Start.Measured), num(m.Start.Predicted),
		num(m.Duration.Measured), num(m.Duration.Predicted), signed(m.Duration.AbsErr), pct(m.Duration.RelErr)}
}

var orderHeader = []string{"Order meas", "Order pred", "Procedure", "Worker", "Node", "Start meas", "Start pred",
	"Duration meas", "Duration pred", "Abs error", "Rel error"}

// unmatchedRow is an unmatched subtree's root.
func unmatchedRow(u ordercompare.Unmatched) []string {
	return []string{strconv.FormatInt(u.Order.Order, 10), u.Order.Proc, strconv.FormatInt(u.Order.Parent, 10), strconv.Itoa(u.Order.Child),
		strconv.Itoa(u.Subtree), num(u.Order.Start), num(u.Order.End - u.Order.Start)}
}

var unmatchedHeader = []string{"Order", "Procedure", "Parent", "Child", "Subtree", "Start", "Duration"}

// worstTitle titles the list of the orders that differ most.
func worstTitle(n int) string {
	if n == 1 {
		return "The order whose duration differs most"
	}
	return fmt.Sprintf("The %d orders whose durations differ most", n)
}

// unmatchedTitle titles a list of unmatched roots, of which shown are.
func unmatchedTitle(side string, roots []ordercompare.Unmatched, shown int) string {
	t := fmt.Sprintf("Unmatched %s orders: 1 subtree, by its root", side)
	if len(roots) > 1 {
		t = fmt.Sprintf("Unmatched %s orders: %d subtrees, by their roots", side, len(roots))
	}
	if shown < len(roots) {
		t += fmt.Sprintf(", the first %d", shown)
	}
	return t
}

// ordersSummary is the orders comparison in one line.
func ordersSummary(o *ordercompare.Comparison) string {
	s := o.Summary
	line := fmt.Sprintf("%d matched, %d unmatched measured, %d unmatched predicted orders; makespan %s",
		s.Matched, s.UnmatchedMeasured, s.UnmatchedPredicted, pct(o.Makespan.RelErr))
	if s.DurationCount == 0 {
		return line
	}
	return line + fmt.Sprintf("; duration MAPE %s over %d orders", mape(s.DurationMAPE), s.DurationCount)
}

// unmatchedSide is one side's unmatched subtrees, by their roots, and
// those shown.
type unmatchedSide struct {
	side         string
	roots, shown []ordercompare.Unmatched
}

func (u unmatchedSide) title() string { return unmatchedTitle(u.side, u.roots, len(u.shown)) }

// unmatchedSides returns the sides that have unmatched subtrees, each
// showing the first worst of them (at least one).
func unmatchedSides(o *ordercompare.Comparison, worst int) []unmatchedSide {
	var out []unmatchedSide
	for _, u := range []unmatchedSide{{side: "measured", roots: o.UnmatchedMeasured}, {side: "predicted", roots: o.UnmatchedPredicted}} {
		if len(u.roots) > 0 {
			u.shown = u.roots[:min(len(u.roots), max(worst, 1))]
			out = append(out, u)
		}
	}
	return out
}
