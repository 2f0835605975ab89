//go:build cluster

package main

// Built with -tags cluster, the command runs its orders in worker
// processes too (-orders.procs, -orders.listen and -orders.join,
// -orders.slurm, -orders.cluster, -orders.mode network): package
// orders/cluster is the transport of such runs. Without the tag it is
// a local program, which links nothing of the network.
import _ "github.com/presage-dvm/presage/orders/cluster"
