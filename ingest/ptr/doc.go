// Package ptr reads Lib-DVM predictor traces (.ptr, plain or gzip) into
// the types of sim/trace: the header of the one-processor run and the
// sequence of traced run-time calls, each with its call and return times,
// source position and parameters. It yields typed values; what the calls
// mean is the simulator's business.
package ptr
