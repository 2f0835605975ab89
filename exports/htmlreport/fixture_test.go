package htmlreport

import (
	"bytes"
	"testing"

	"github.com/presage-dvm/presage/sim/result"
)

// testRun builds a 3-level tree:
//
//	Main 1
//	├── Seq 2
//	│   ├── Par 3
//	│   └── Par 4
//	└── User 5 (expr 7)
//	    └── Par 6
func testRun() *result.Run {
	mk := func(id, parent, level int, typ result.IntervalType, children ...int) *result.Interval {
		iv := &result.Interval{ID: id, Parent: parent, Level: level, Type: typ, Count: int64(id),
			Line: 10 * id, File: "jac.fdv", Children: children}
		v := &iv.Values
		v[result.TotalTime] = 0.04 / float64(id)
		v[result.ExecutionTime] = v[result.TotalTime] / 4
		v[result.ProductiveTime] = v[result.TotalTime] * 0.25
		v[result.LostTime] = v[result.TotalTime] * 0.75
		v[result.Efficiency] = 0.25
		return iv
	}
	expr := int64(7)
	ivs := []*result.Interval{
		mk(1, 0, 0, result.Main, 2, 5),
		mk(2, 1, 1, result.Seq, 3, 4),
		mk(3, 2, 2, result.Par),
		mk(4, 2, 2, result.Par),
		mk(5, 1, 1, result.User, 6),
		mk(6, 5, 2, result.Par),
	}
	ivs[4].Expr = &expr
	return &result.Run{ID: 12, Kind: result.Predicted, Program: "jac", Intervals: ivs, ReportRoot: 1,
		Config: result.Config{Machine: "Predictor", Grid: []int{2, 2}, Network: "cluster"}}
}

func render(t *testing.T, run *result.Run, opt Options) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := Write(&b, run, opt); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}
