// Package sweep owns parameter sweeps: the cartesian product of machine
// configurations (machines, processor grids, networks and overrides of the
// message and processor parameters) predicted for one stored trace.
//
// A sweep is identified by the hash of its Definition (trace and machine
// contents, never store ids), so re-running the same command resumes it and
// shards of it run on different hosts merge into one. Configurations are
// simulated concurrently by a bounded pool of workers; a single writer
// stores each finished run in its own transaction.
package sweep
