// Package sweep owns parameter sweeps as pure computations: the Definition
// of a cartesian product of machine configurations (machines, processor
// grids, networks and overrides of the message and processor parameters),
// its canonical enumeration and sharding, and Execute, which simulates
// configurations of a compiled trace on a bounded pool of workers and
// hands each finished run to the caller.
//
// A sweep is identified by the hash of its Definition (trace and machine
// contents, never store ids), so re-running the same command resumes it and
// shards of it run on different hosts merge into one. Storing runs and
// resuming are the orchestration's business (internal/stage): this package
// knows no store.
package sweep
