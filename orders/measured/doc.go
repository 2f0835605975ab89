// Package measured owns the file in which a real run of an orders program
// (package orders, run mode with -orders.out) reports what it measured:
// the makespan, and how every worker spent it — running orders, waiting
// for results with its orders suspended, or idle. Presage stores it as a
// measured run (presage ingest orders-run) to compare with the prediction
// of the same run (presage compare).
//
// The file is JSON Lines, versioned like the order trace: a header line,
// then one line per worker, in worker order (docs/orders.md, "Measured
// runs"):
//
//	{"format":"presage-orders-run","version":1,"program":"matmul","machine":"host/amd64","migrate":false,"started":"2026-11-24T11:00:00Z","orders":4681,"makespan":1.25,"workers":2}
//	{"worker":0,"orders":2400,"busy":1.2,"waiting":0.01,"idle":0.04}
//	{"worker":1,"orders":2281,"busy":1.1,"waiting":0.05,"idle":0.1}
package measured
