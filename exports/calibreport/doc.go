// Package calibreport owns the report of a calibration (presage
// calibrate): the fit of the machine's parameters to measured runs, and
// per run and matched interval the execution time measured and predicted
// before and after calibration, as text, JSON and an HTML page whose
// chart shows the held-out runs' errors.
package calibreport
