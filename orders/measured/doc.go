// Package measured owns the file in which a real run of an orders program
// (package orders, run mode with -orders.out) reports what it measured:
// the makespan, and how every worker spent it — running orders, waiting
// for results with its orders suspended, or idle. Presage stores it as a
// measured run (presage ingest orders-run) to compare with the prediction
// of the same run (presage compare).
//
// The file is JSON Lines, versioned like the order trace: a header line,
// then one line per worker, in worker order, then (version 2) one line per
// order, in the order the run made them — its procedure, its parent and
// its place among the parent's children (which name the same order in
// the recorded trace), when it was made, and the stretches it ran as
// [worker, start, end] (docs/orders.md, "Measured runs"); a run in worker
// processes says in its header the "cores" of each, worker w·cores+k
// being core k of process w:
//
//	{"format":"presage-orders-run","version":2,"program":"sort","machine":"host/amd64","scheduler":"fifo","migrate":false,"started":"2026-11-24T11:00:00Z","orders":3,"makespan":0.0071,"workers":2}
//	{"worker":0,"orders":2,"busy":0.0068,"waiting":0.0003,"idle":0}
//	{"worker":1,"orders":1,"busy":0.0038,"waiting":0,"idle":0.0033}
//	{"order":1,"parent":0,"child":0,"proc":"sort","made":0,"runs":[[0,0,0.0012],[0,0.006,0.0071]]}
//	{"order":2,"parent":1,"child":0,"proc":"half","made":0.0011,"runs":[[1,0.0011,0.0049]]}
//	{"order":3,"parent":1,"child":1,"proc":"half","made":0.0012,"runs":[[0,0.0013,0.0058]]}
//
// Read reads both versions; a version 1 file has no scheduler (its runs
// were FIFO) and no schedule.
package measured
