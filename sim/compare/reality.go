package compare

import (
	"math"
	"slices"
)

// RealityRow is one line of the DVM reality check (`presage reality`):
// one interval of one program on one grid, its measured execution time in
// every round, and its predictions.
type RealityRow struct {
	Trace    string // the program's trace name (devdvm: jac_e4_L4000_it100)
	Program  string // the name up to its first '_' (jac)
	Size     string // the rest of the name (e4_L4000_it100), "" when none
	Grid     string // the measured grid, trailing sizes of 1 left out
	Interval string // "Main", or the interval as the reports name it ("Par jac.fdv:24")
	Depth    int    // 0 for Main
	// Measured is the interval's execution time in each round that
	// measured it, in the rounds' order.
	Measured []float64
	// Predictions are the original-compatible predictions (the machine
	// file as the original Predictor reads it) of each round's trace, in
	// the rounds' order: each round traces its program again, and a trace
	// made on a busy machine runs slow. Predicted is their median,
	// Extended the prediction with the machine parameters fitted without
	// this run (NaN when not made).
	Predictions         []float64
	Predicted, Extended float64
}

// Median is the median of the measured rounds (NaN when none).
func (r RealityRow) Median() float64 { return Median(r.Measured) }

// Median is the median of xs (NaN when none).
func Median(xs []float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	if n := len(s); n%2 == 1 {
		return s[n/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// Min and Max are the spread of the measured rounds.
func (r RealityRow) Min() float64 { return slices.Min(r.Measured) }
func (r RealityRow) Max() float64 { return slices.Max(r.Measured) }

// TracesMin and TracesMax are the spread of the rounds' traces: their
// original-compatible predictions, which on grid 1 are the traced runs'
// own times. A grid-1 row predicted beyond the measured spread with
// traces all on one side says the traced runs ran slower or faster than
// the measured ones, not that the model is off.
func (r RealityRow) TracesMin() float64 { return slices.Min(r.Predictions) }
func (r RealityRow) TracesMax() float64 { return slices.Max(r.Predictions) }

// RelPredicted and RelExtended are the relative errors against the
// median (a fraction; NaN when not computable).
func (r RealityRow) RelPredicted() float64 { return rel(r.Predicted, r.Median()) }
func (r RealityRow) RelExtended() float64  { return rel(r.Extended, r.Median()) }

func rel(pred, meas float64) float64 {
	if meas == 0 {
		return math.NaN()
	}
	return (pred - meas) / meas
}

// ReportCheck is one of the original's reports held against Presage's
// report of the same input.
type ReportCheck struct {
	Kind     string   `json:"kind"`     // "predictor" (HTML) or "analyzer" (text)
	Original string   `json:"original"` // the original's report file
	Against  string   `json:"against"`  // what Presage reported: "predicted run 12 (trace 3 on 1x2)"
	Diffs    []string `json:"diffs"`    // one line per difference; none when equal
	Rounding int      `json:"rounding"` // values accepted as rounding cases (the Predictor's)
}

// Reality is what the DVM reality check found.
type Reality struct {
	Rounds   []string // the folders, one round each
	Machine  string   // the machine file of the original-compatible prediction
	Extended string   // how the extended column was made
	Rows     []RealityRow
	Reports  []ReportCheck
	Notes    []string // what could not be done (a fit that failed, a missing trace)
	// LeaveOneOut are the fits across programs and sizes, one line each:
	// "fitted on X, predicted Y: error ..." (internal/stage's crossFits).
	LeaveOneOut []string
}

// Mismatches are the reports that differ from the original's.
func (r *Reality) Mismatches() []ReportCheck {
	var out []ReportCheck
	for _, c := range r.Reports {
		if len(c.Diffs) > 0 {
			out = append(out, c)
		}
	}
	return out
}

// Holds reports whether pred predicts the row within bound (a fraction)
// of its measured median, or, where the rounds themselves spread more
// than bound about their median, within their spread (min–max).
func (r RealityRow) Holds(pred, bound float64) bool {
	med := r.Median()
	if math.Abs(rel(pred, med)) <= bound {
		return true
	}
	return (r.Max()-r.Min())/med > bound && pred >= r.Min() && pred <= r.Max()
}

// Within counts the runs (the Main rows) each column predicts within
// bound (RealityRow.Holds), and the runs.
func (r *Reality) Within(bound float64) (predicted, extended, runs int) {
	for _, row := range r.Rows {
		if row.Depth != 0 {
			continue
		}
		runs++
		if row.Holds(row.Predicted, bound) {
			predicted++
		}
		if row.Holds(row.Extended, bound) {
			extended++
		}
	}
	return predicted, extended, runs
}

// ExtendedMisses are the runs (Main rows) the extended column does not
// predict within bound (RealityRow.Holds).
func (r *Reality) ExtendedMisses(bound float64) []RealityRow {
	var out []RealityRow
	for _, row := range r.Rows {
		if row.Depth == 0 && !row.Holds(row.Extended, bound) {
			out = append(out, row)
		}
	}
	return out
}
