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
	ByMain Method = "main" // Main with Main
	ByPath Method = "path" // the same identity under matched parents
)

// Ref identifies an interval of one side.
type Ref struct {
	ID    int
	Type  result.IntervalType
	File  string
	Line  int
	Expr  *int64 // nil when the interval has no expression
	Level int    // the interval's level in its own run (0 = Main)
	// Depth is the level the identity counts: below Main, looking through
	// the program-level loop of an -e4 trace.
	Depth  int
	Count  int64 // times the interval was entered
	Exec   float64
	Reason string // why the interval is unmatched; "" when matched
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
	Root    Ref    // the report root: where the side's own report starts
	Size    int    // intervals of the run, all compared
	// MachineFacts describe the machine the side ran (or was predicted)
	// on, as label and value: what the run itself says (processes,
	// per-processor times) and what the user described (Options).
	MachineFacts []Fact
	// ProgramLoop is the program-level loop of an -e4 trace (a Seq at
	// Main's line, Main's only child), looked through by the matching; nil
	// when the side has none.
	ProgramLoop *Ref
}

// Fact is a labelled value of a report.
type Fact struct{ Label, Value string }

// Options change what Compare accepts and shows.
type Options struct {
	// Force compares runs that are not of one program, with a warning.
	Force bool
	// MeasuredMachine and PredictedMachine are shown beside each side's
	// own facts (the machine the measurement ran on, described by the
	// user; the machine file of the prediction).
	MeasuredMachine, PredictedMachine []Fact
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
	// Matches in the pre-order of the predicted tree.
	Matches []Match
	// Intervals without a counterpart, in pre-order, with their Reason.
	UnmatchedMeasured, UnmatchedPredicted []Ref
	Summary                               Summary
	Warnings                              []string
}

// Compare matches the intervals of measured and predicted by identity,
// Main with Main, and compares the matched ones. Runs that are not of one
// program are refused with a *NotComparableError unless opt.Force, which
// compares them with a warning; runs of unexpected kinds or on different
// grids are compared with a warning.
func Compare(measured, predicted *result.Run, opt Options) (*Comparison, error) {
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
	ws := warnings(measured, predicted)
	if err := comparable(mt, pt); err != nil {
		if !opt.Force {
			return nil, err
		}
		ws = append([]string{"compared with --force: " + err.(*NotComparableError).Reason}, ws...)
	}
	pairs := match(mt, pt)
	c := &Comparison{
		Measured:  mt.side(),
		Predicted: pt.side(),
		Warnings:  ws,
	}
	c.Measured.MachineFacts = append(runFacts(measured), opt.MeasuredMachine...)
	c.Predicted.MachineFacts = append(runFacts(predicted), opt.PredictedMachine...)
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
