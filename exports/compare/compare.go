package compare

import (
	"errors"
	"fmt"
	"math"

	"github.com/presage-dvm/presage/sim/result"
)

// Chars are the characteristics compared, in the order of the original's
// report (seed 002 Appendix 1, without the per-operation-class columns).
var Chars = []result.Char{
	result.Efficiency, result.ExecutionTime, result.TotalTime,
	result.ProductiveTime, result.ProductiveCPUTime, result.ProductiveSYSTime, result.IOTime,
	result.LostTime, result.InsuffParallelism, result.InsuffParallelismUsr, result.InsuffParallelismSys,
	result.Communication, result.Idle,
	result.LoadImbalance, result.Synchronization, result.TimeVariation, result.Overlap,
}

// Method says how two intervals were matched.
type Method string

const (
	ByRoot Method = "root" // the two report roots (or the interval of the other tree with the root's key)
	ByPath Method = "path" // the same path of keys from the matched roots
	ByKey  Method = "key"  // a key found once in each report tree
)

// Ref identifies an interval of one side.
type Ref struct {
	ID    int
	Type  result.IntervalType
	File  string
	Line  int
	Expr  *int64 // nil when the interval has no expression
	Level int    // the interval's level in its own run (0 = Main)
	Depth int    // levels below its side's report root; -1 outside the report tree
	Count int64  // times the interval was entered
	Exec  float64
}

// Key returns the identity the intervals are matched by.
func (r Ref) Key() Key { return keyOf(r.Type, r.File, r.Line, r.Expr) }

// String names the interval as the reports do: "Par jac.fdv:24".
func (r Ref) String() string { return r.Key().String() }

// Value is one characteristic of a matched interval on both sides.
type Value struct {
	Char      result.Char
	Measured  float64
	Predicted float64
	AbsErr    float64 // Predicted − Measured
	RelErr    float64 // AbsErr / Measured; NaN when Measured is 0
}

// Match is a pair of matched intervals with their characteristics, one
// Value per element of Chars.
type Match struct {
	Measured, Predicted Ref
	By                  Method
	Values              []Value
}

// Value returns the value of characteristic c.
func (m *Match) Value(c result.Char) (Value, bool) {
	for _, v := range m.Values {
		if v.Char == c {
			return v, true
		}
	}
	return Value{}, false
}

// Side describes one of the two runs.
type Side struct {
	RunID   int64
	Kind    result.Kind
	Program string
	Machine string // "" for measured runs
	Grid    string // e.g. "2x2"
	Root    Ref    // the report root: where the side's report tree starts
	Size    int    // intervals in the report tree
	// Outside are the run's intervals outside its report tree (Main above
	// a deeper report root, for instance); they are not compared.
	Outside []Ref
}

// Summary sums the comparison up.
type Summary struct {
	Matched            int
	UnmatchedMeasured  int
	UnmatchedPredicted int
	// MAPE is the mean of |RelErr| of Execution_time over the matched
	// intervals with a measured execution time (a fraction: 0.25 is 25 %);
	// NaN when there is none. MAPECount is the number of those intervals.
	MAPE      float64
	MAPECount int
}

// Comparison is the result of Compare.
type Comparison struct {
	Measured, Predicted Side
	// Matches in the pre-order of the predicted report tree.
	Matches []Match
	// Intervals of the report trees without a counterpart, in pre-order.
	UnmatchedMeasured, UnmatchedPredicted []Ref
	Summary                               Summary
	Warnings                              []string
}

// Compare matches the report trees of measured and predicted and compares
// the matched intervals. Runs of unexpected kinds or on different grids
// are still compared, with a warning.
func Compare(measured, predicted *result.Run) (*Comparison, error) {
	if measured == nil || predicted == nil {
		return nil, errors.New("compare: a run is missing")
	}
	mt, err := newTree(measured)
	if err != nil {
		return nil, fmt.Errorf("compare: measured %w", err)
	}
	pt, err := newTree(predicted)
	if err != nil {
		return nil, fmt.Errorf("compare: predicted %w", err)
	}
	pairs := match(mt, pt)
	c := &Comparison{
		Measured:  mt.side(),
		Predicted: pt.side(),
		Warnings:  warnings(measured, predicted),
	}
	for _, p := range pairs {
		c.Matches = append(c.Matches, Match{
			Measured:  mt.ref(p.m),
			Predicted: pt.ref(p.p),
			By:        p.by,
			Values:    values(p.m, p.p),
		})
	}
	c.UnmatchedMeasured = mt.unmatched()
	c.UnmatchedPredicted = pt.unmatched()
	c.Summary = summarize(c)
	return c, nil
}

// values compares the characteristics of a matched pair.
func values(m, p *result.Interval) []Value {
	vs := make([]Value, len(Chars))
	for i, ch := range Chars {
		mv, pv := m.Values[ch], p.Values[ch]
		vs[i] = Value{Char: ch, Measured: mv, Predicted: pv, AbsErr: pv - mv, RelErr: relErr(mv, pv)}
	}
	return vs
}

// relErr is (pred − meas)/meas, undefined (NaN) without a measured value.
func relErr(meas, pred float64) float64 {
	if meas == 0 {
		return math.NaN()
	}
	return (pred - meas) / meas
}

func summarize(c *Comparison) Summary {
	s := Summary{
		Matched:            len(c.Matches),
		UnmatchedMeasured:  len(c.UnmatchedMeasured),
		UnmatchedPredicted: len(c.UnmatchedPredicted),
		MAPE:               math.NaN(),
	}
	sum := 0.0
	for i := range c.Matches {
		v, _ := c.Matches[i].Value(result.ExecutionTime)
		if math.IsNaN(v.RelErr) || math.IsInf(v.RelErr, 0) {
			continue
		}
		sum += math.Abs(v.RelErr)
		s.MAPECount++
	}
	if s.MAPECount > 0 {
		s.MAPE = sum / float64(s.MAPECount)
	}
	return s
}

// warnings notes what makes the comparison doubtful without preventing it.
func warnings(measured, predicted *result.Run) []string {
	var ws []string
	mg, pg := result.GridString(measured.Config.Grid), result.GridString(predicted.Config.Grid)
	if mg != pg {
		ws = append(ws, fmt.Sprintf("processor grids differ: measured %s, predicted %s (compared anyway)", mg, pg))
	}
	if measured.Kind != result.Measured {
		ws = append(ws, fmt.Sprintf("run %d, given as the measured run, is a %s run", measured.ID, measured.Kind))
	}
	if predicted.Kind != result.Predicted {
		ws = append(ws, fmt.Sprintf("run %d, given as the predicted run, is a %s run", predicted.ID, predicted.Kind))
	}
	return ws
}
