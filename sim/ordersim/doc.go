// Package ordersim is stage 4 of the orders-based technology (seed 004):
// it plays a recorded order trace (package sim/ordertrace) on a
// cluster and predicts the run time, the load of every node, the waits
// that lengthened the run (the critical path) and, by Sizes, the same on
// clusters of many sizes, reusing a schedule wherever more nodes cannot
// change it (the sweep runner and the search for the smallest cluster
// meeting a deadline are sim/sweep's, shared with the DVM engine).
//
// The simulation is a discrete-event simulation of the semantics the
// runtime's run mode follows (package orders): a node runs at most Cores
// orders at once; an order that requests a result not yet on its node
// suspends and frees its core; a resumed order goes ahead of orders that
// never started, on the node it started on; arguments and results cross
// the network at Latency + bytes/Bandwidth. docs/orders-sim.md states the
// rules exactly (events, transfers, schedulers, ties).
//
// The package is pure: it reads only ordertrace.Sources. Prepare reads a
// trace once to count each order's children and requests (2 bytes an
// order); every simulation then reads it again lazily and hands the
// schedule of each order to a callback instead of keeping it, so its
// memory follows the orders that are live (made and not finished, or
// finished with requests to come) and those read ahead of their making,
// not the length of the trace.
//
// What bounds memory: a simulation keeps an entry of 152 bytes (88 more
// with OnOrder, and 24 bytes a stretch) for every order live or read
// ahead of its making, in chunks (package sim/internal/chunked) whose entries are
// reused once their order is dropped; the critical path's links the
// live orders can still extend, counted and freed the same way; and the
// requests of the orders not finished, 16 bytes each (rounded up to a
// power of two a list), reused
// as their orders finish. None of these holds a pointer, so the garbage
// collector has nothing of them to scan. Its memory is therefore
// proportional to Result.PeakLive + Result.PeakBuffered, never to the
// length of the trace. Those peaks
// depend on the schedule as much as on the trace: under FIFO, a divide
// and conquer numbered level by level is made breadth-first (every inner
// order is made, runs its split and suspends before the first leaf,
// queued behind them, starts), so every order is live at once and
// PeakLive equals the length of the trace; WorkStealing runs the newest
// order first, depth-first, and keeps about 1,800 of the same million
// orders live, while still reading most lines ahead (a level-numbered
// trace puts an order's children far after it).
package ordersim
