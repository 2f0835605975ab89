// Package sweep owns parameter sweeps as pure computations, for both
// engines. What every sweep shares: DefinitionHash, which identifies a
// definition by its contents; positions in a canonical order (Positioned,
// List) and shards of them (Shard); Execute, which simulates
// configurations on a bounded pool of workers and hands each finished run
// to the caller; SmallestFor, the smallest size whose run time meets a
// deadline; and the cost questions over the sizes simulated,
// FastestWithin (a budget of node-seconds) and CheapestFor (a deadline).
// What only the DVM engine's sweeps have: the Definition of a
// cartesian product of machine configurations (machines, processor
// grids, networks and overrides of the message and processor parameters),
// its enumeration and the Plan that simulates a compiled trace on each.
// The orders engine supplies its own configurations (node counts) and
// simulation (ordersim.Sizes).
//
// A sweep is identified by the hash of its definition (trace and machine
// contents, never store ids), so re-running the same command resumes it and
// shards of it run on different hosts merge into one. Storing runs and
// resuming are the orchestration's business (internal/stage): this package
// knows no store.
package sweep
