// Package workspan computes the work and span of an order trace
// (package sim/ordertrace): how much there is to do, how long it takes
// with unlimited computers, and so the parallelism and the range of
// speedups a cluster of N nodes can reach (after Cilkview: He, Leiserson,
// Leiserson, "The Cilkview scalability analyzer", SPAA 2010).
//
// The span is the longest path of the graph whose nodes are moments of
// the orders' own clocks and whose edges run along each order's own time,
// from a parent's moment of making a child to the child's start, and from
// the moment a result is provided to the moment it is requested. The
// burdened span prices every make and result edge as one message of the
// network. docs/orders.md gives the formulas.
//
// The analysis is pure and streaming: it reads the orders once, in file
// order, computing the as-soon-as-possible schedule with unlimited
// computers as each moment's inputs become known. An order that cannot
// be placed when the trace ends waits in a cycle; Analyze and Check
// report it as a *DeadlockError, which completes the Reader's validation.
// Given the trace's counts (AnalyzeCounted), it forgets each order once
// no later one can need it: its memory follows the orders still running
// or still awaited, not the trace.
package workspan
