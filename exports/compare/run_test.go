package compare

import (
	"bytes"
	"io"
	"testing"

	"github.com/presage-dvm/presage/sim/result"
)

// Hand-built runs for the tests.

// iv describes one interval of a test run: its ID, parent, key and the
// measured or predicted execution time (the other values derive from it).
type iv struct {
	id, parent int
	typ        result.IntervalType
	file       string
	line       int
	expr       *int64
	exec       float64
}

func ex(v int64) *int64 { return &v }

// newRun builds a run from intervals listed in pre-order.
func newRun(kind result.Kind, grid []int, root int, ivs ...iv) *result.Run {
	run := &result.Run{Kind: kind, Program: "prog", Config: result.Config{Grid: grid}, ReportRoot: root}
	byID := map[int]*result.Interval{}
	for _, d := range ivs {
		x := &result.Interval{ID: d.id, Parent: d.parent, Type: d.typ, File: d.file, Line: d.line, Expr: d.expr, Count: 1}
		x.Values[result.ExecutionTime] = d.exec
		x.Values[result.TotalTime] = 4 * d.exec
		x.Values[result.ProductiveTime] = d.exec
		x.Values[result.LostTime] = 3 * d.exec
		if d.exec > 0 {
			x.Values[result.Efficiency] = 0.25
		}
		if p := byID[d.parent]; p != nil {
			p.Children = append(p.Children, d.id)
			x.Level = p.Level + 1
		}
		byID[d.id] = x
		run.Intervals = append(run.Intervals, x)
	}
	return run
}

// jacMeasured is the shape of the analyzer's jac_e4 tree; jacPredicted the
// Predictor's, with a level-1 Seq report root under Main.
func jacMeasured(exec ...float64) *result.Run {
	return newRun(result.Measured, []int{2, 2}, 1,
		iv{1, 0, result.Main, "jac.fdv", 8, nil, exec[0]},
		iv{2, 1, result.Par, "jac.fdv", 10, nil, exec[1]},
		iv{3, 1, result.Seq, "jac.fdv", 22, nil, exec[2]},
		iv{4, 3, result.Par, "jac.fdv", 24, nil, exec[3]},
		iv{5, 3, result.Par, "jac.fdv", 31, nil, exec[4]},
	)
}

func jacPredicted(exec ...float64) *result.Run {
	return newRun(result.Predicted, []int{2, 2}, 2,
		iv{1, 0, result.Main, "jac.fdv", 8, nil, exec[0]},
		iv{2, 1, result.Seq, "jac.fdv", 8, nil, exec[0]},
		iv{3, 2, result.Par, "jac.fdv", 10, nil, exec[1]},
		iv{4, 2, result.Seq, "jac.fdv", 22, nil, exec[2]},
		iv{5, 4, result.Par, "jac.fdv", 24, nil, exec[3]},
		iv{6, 4, result.Par, "jac.fdv", 31, nil, exec[4]},
	)
}

// mustCompare compares m with p, failing the test on error.
func mustCompare(t *testing.T, m, p *result.Run) *Comparison {
	t.Helper()
	c, err := Compare(m, p, Options{})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// mustForce compares m with p as compare --force does.
func mustForce(t *testing.T, m, p *result.Run) *Comparison {
	t.Helper()
	c, err := Compare(m, p, Options{Force: true})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// render writes c with write (WriteText, WriteJSON or WriteHTML).
func render(t *testing.T, c *Comparison, write func(io.Writer, *Comparison) error) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := write(&b, c); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}
