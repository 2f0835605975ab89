// Package fit owns the fitting of the model's machine parameters to
// measured runs: the description of the host a measurement ran on (Host),
// the parameters the model uses (Params: processor power relative to the
// traced run, message start-up time and time per byte per level of the
// cluster tree, and an oversubscription latency where processes outnumber
// cores), the machine a set of parameters gives for a run (Host.Machine),
// a bounded least-squares fit of the parameters (Fit: physical Bounds, the
// parameters no observation depends on left at the start's values, and the
// start kept when the fit does no better), the leave-one-out's spread
// (Spread), the machine a fitted machine file describes (Host.FileMachine;
// ingest/machinefile writes it), the extended model's host fit of the DVM
// reality check (FitHost: the in-node start-up time, the run work and
// the I/O copy time, both where runs of different sizes tell them apart,
// else the I/O copy time alone or the run work beside a given one, by
// Huber's loss, so that a grid whose rounds the host slowed
// does not set them), and the report of a fit (Report: the fit and per run and matched
// interval the errors before and after). It is pure: the caller simulates
// and measures, this package only turns parameters into machines and
// residuals into parameters.
package fit
