// Package ordergen writes synthetic order traces (sim/ordertrace) of
// any size in three shapes: a divide-and-conquer binary tree, a pipeline
// of stages over a stream of items, and a master handing out rounds of
// tasks. Tests and benchmarks of the order analyses use them instead of
// recorded runs, and Expect gives the exact work and span of a trace
// without jitter by closed forms, to cross-check sim/workspan.
//
// Generation streams: memory does not depend on the size, because every
// order's costs are drawn from a hash of the seed and its id rather than
// from a sequential generator, so a child can recompute what its parent
// drew without anything being kept.
package ordergen
