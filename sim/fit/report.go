package fit

import "math"

// IntervalError is the execution time of one matched interval of one
// measured run, measured and predicted before (on the request's machine)
// and after the fit (on the fitted host).
type IntervalError struct {
	RunID                   int64
	Grid                    string
	Procs                   int
	Holdout                 bool // the run was not fitted
	Oversubscribed          bool // its processes outnumber the host's cores
	Interval                string
	Depth                   int
	Measured, Before, After float64
}

// RelBefore and RelAfter are the relative errors (a fraction).
func (e IntervalError) RelBefore() float64 { return (e.Before - e.Measured) / e.Measured }
func (e IntervalError) RelAfter() float64  { return (e.After - e.Measured) / e.Measured }

// Outcome is what a fit found (internal/stage.Fit): the parameters, and
// per run and matched interval the errors before and after.
type Outcome struct {
	Program   string
	Host      Host
	Start     Params
	Free      []Param
	Fit       Result
	Machine   string // the fitted machine, stored under this name
	MachineID int64
	Path      string          // the machine file written
	Errors    []IntervalError // every run, matched interval by interval, in the runs' order
	// PowerFree: the power was fitted (the measured runs ran on another
	// host than the traced one); otherwise it stayed at 1, the trace's.
	PowerFree bool
	// LeaveOneOut are the fits without each fitted grid in turn (when
	// asked), each predicting the grid it left out.
	LeaveOneOut []LeaveOneOut
}

// LeaveOneOut is one fit of a leave-one-out: the parameters fitted
// without the runs of one grid, and that grid's runs predicted on them.
type LeaveOneOut struct {
	Grid   string          // the grid left out of this fit
	Fit    Result          // the fit without it
	Errors []IntervalError // the left-out runs' Main: measured, before (the starting machine), after (this fit)
}

// Spread is the least and the largest value of each parameter over the
// fits of a leave-one-out (NaN when there is none): how much what the
// fit says depends on which run it did not see.
func Spread(loo []LeaveOneOut) [NumParams][2]float64 {
	var out [NumParams][2]float64
	for q := range NumParams {
		out[q] = [2]float64{math.NaN(), math.NaN()}
		for i, l := range loo {
			v := l.Fit.Params.Get(q)
			if i == 0 || v < out[q][0] {
				out[q][0] = v
			}
			if i == 0 || v > out[q][1] {
				out[q][1] = v
			}
		}
	}
	return out
}
