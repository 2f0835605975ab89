// Package fitreport owns the report of a fit (presage fit): the machine's
// parameters fitted to measured runs, and per run and matched interval the
// execution time measured and predicted before and after the fit, as text,
// JSON and an HTML page whose chart shows the held-out runs' errors.
package fitreport
