package fit

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
}
