// Package comparetest builds the runs the tests of sim/compare and
// exports/comparereport compare: hand-made interval trees in the shapes of
// the analyzer's and the Predictor's jac_e4 reports.
package comparetest

import (
	"testing"

	"github.com/presage-dvm/presage/sim/compare"
	"github.com/presage-dvm/presage/sim/result"
)

// IV describes one interval of a test run: its ID, parent, key and the
// measured or predicted execution time (the other values derive from it).
type IV struct {
	ID, Parent int
	Type       result.IntervalType
	File       string
	Line       int
	Expr       *int64
	Exec       float64
}

// Iv is an interval of a test run: IV's fields in order.
func Iv(id, parent int, typ result.IntervalType, file string, line int, expr *int64, exec float64) IV {
	return IV{ID: id, Parent: parent, Type: typ, File: file, Line: line, Expr: expr, Exec: exec}
}

// Ex is a pointer to an interval's expression value.
func Ex(v int64) *int64 { return &v }

// NewRun builds a run from intervals listed in pre-order.
func NewRun(kind result.Kind, grid []int, root int, ivs ...IV) *result.Run {
	run := &result.Run{Kind: kind, Program: "prog", Config: result.Config{Grid: grid}, ReportRoot: root}
	byID := map[int]*result.Interval{}
	for _, d := range ivs {
		x := &result.Interval{ID: d.ID, Parent: d.Parent, Type: d.Type, File: d.File, Line: d.Line, Expr: d.Expr, Count: 1}
		x.Values[result.ExecutionTime] = d.Exec
		x.Values[result.TotalTime] = 4 * d.Exec
		x.Values[result.ProductiveTime] = d.Exec
		x.Values[result.LostTime] = 3 * d.Exec
		if d.Exec > 0 {
			x.Values[result.Efficiency] = 0.25
		}
		if p := byID[d.Parent]; p != nil {
			p.Children = append(p.Children, d.ID)
			x.Level = p.Level + 1
		}
		byID[d.ID] = x
		run.Intervals = append(run.Intervals, x)
	}
	return run
}

// JacMeasured is the shape of the analyzer's jac_e4 tree; JacPredicted the
// Predictor's, with a level-1 Seq report root under Main.
func JacMeasured(exec ...float64) *result.Run {
	return NewRun(result.Measured, []int{2, 2}, 1,
		Iv(1, 0, result.Main, "jac.fdv", 8, nil, exec[0]),
		Iv(2, 1, result.Par, "jac.fdv", 10, nil, exec[1]),
		Iv(3, 1, result.Seq, "jac.fdv", 22, nil, exec[2]),
		Iv(4, 3, result.Par, "jac.fdv", 24, nil, exec[3]),
		Iv(5, 3, result.Par, "jac.fdv", 31, nil, exec[4]),
	)
}

// JacPredicted: see JacMeasured.
func JacPredicted(exec ...float64) *result.Run {
	return NewRun(result.Predicted, []int{2, 2}, 2,
		Iv(1, 0, result.Main, "jac.fdv", 8, nil, exec[0]),
		Iv(2, 1, result.Seq, "jac.fdv", 8, nil, exec[0]),
		Iv(3, 2, result.Par, "jac.fdv", 10, nil, exec[1]),
		Iv(4, 2, result.Seq, "jac.fdv", 22, nil, exec[2]),
		Iv(5, 4, result.Par, "jac.fdv", 24, nil, exec[3]),
		Iv(6, 4, result.Par, "jac.fdv", 31, nil, exec[4]),
	)
}

// MustCompare compares m with p, failing the test on error.
func MustCompare(t *testing.T, m, p *result.Run) *compare.Comparison {
	t.Helper()
	c, err := compare.Compare(m, p, compare.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// MustForce compares m with p as compare --force does.
func MustForce(t *testing.T, m, p *result.Run) *compare.Comparison {
	t.Helper()
	c, err := compare.Compare(m, p, compare.Options{Force: true})
	if err != nil {
		t.Fatal(err)
	}
	return c
}
