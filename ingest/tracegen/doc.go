// Package tracegen writes synthetic Lib-DVM predictor traces (.ptr) of any
// size: the demo and the speed benchmarks use them instead of real traces.
//
// The text follows what the run-time system writes in "runpred" mode, as
// merged by the original Predictor (FORMATS-observed.md (a), docs/model.md §9):
// the preamble up to ret_dvm_Init, one event line per call and return
// (padded to 27 columns, TIME with 8 decimals, LINE, FILE), each preceded by
// a blank line, the parameter lines that docs/model.md §6.6 requires with
// consistent handles, and the Event_dvm_exit tail. Two model programs are
// generated: a Fortran-DVM Jacobi relaxation (reduction and shadow renewal in
// every iteration) and a Gauss elimination whose pivot row is read by remote
// access while the elimination loop shrinks, so its load is unbalanced.
//
// Handles, parameters and call order depend only on the program, N, the
// iteration count and whether intervals are traced; the times are drawn
// from a generator seeded with Options.Seed, so a seed always gives the same
// bytes and two seeds differ in times only.
package tracegen
