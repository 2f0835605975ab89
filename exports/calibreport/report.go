package calibreport

import (
	"github.com/presage-dvm/presage/schema/stored"
	"github.com/presage-dvm/presage/sim/calibrate"
)

// IntervalError is the execution time of one matched interval of one
// measured run, measured and predicted before (on the request's machine)
// and after calibration (on the fitted host).
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

// Report is the outcome of a calibration (internal/stage.Calibrate).
type Report struct {
	Program string
	Host    calibrate.Host
	Start   calibrate.Params
	Free    []calibrate.Param
	Fit     calibrate.Result
	Machine stored.MachineInfo // the fitted machine, stored
	Path    string             // the machine file written
	Errors  []IntervalError    // every run, matched interval by interval, in the runs' order
}
