// Package cluster is the transport of runs of package orders in worker
// processes (orders.Transport): the coordinator's embedded NATS server,
// which every worker process connects to; starting the workers on this
// computer (-orders.procs), sharing its cores with them (cores.go),
// awaiting them at an address (-orders.listen, -orders.join) or under
// Slurm (-orders.slurm); the run's token and TLS,
// without which the server refuses a connection; and the cluster
// description files (-orders.cluster, and what -orders.mode network
// measured). orders' coordinator and workers run the orders; this
// package moves their messages and keeps their processes.
//
// A program opts in by importing it for its side effect, which
// registers the transport; its -orders.* flags are package orders':
//
//	import _ "github.com/presage-dvm/presage/orders/cluster"
//
// docs/orders.md, "Several processes and computers", says how such a
// run goes, and why NATS.
package cluster
