package cluster

import (
	"os"
	"runtime"
	"strconv"
)

// The processes of a run whose worker processes the coordinator starts on
// its own machine (-orders.procs) share the machine's cores. The
// coordinator, whose goroutines only pass messages, keeps to the cores the
// workers leave, one at least; each worker process runs Go code on its
// cores (-orders.cores) and one thread more, for the messages it sends
// and answers while its orders compute. Left at every core of the
// machine, the coordinator spins threads looking for work whenever a
// goroutine blocks, and runs the collector's idle workers on them, on
// cores the workers need. A worker with no thread beyond its cores holds
// what its orders send until they wait: an order that makes a child and
// then computes would have the child start only once it asks for it
// (measured: docs/performance.md, "Each process its share of the cores").
// A GOMAXPROCS the user set in the environment is kept as it is, in the
// workers and in the coordinator.

// userSetGOMAXPROCS reports whether the environment sets GOMAXPROCS,
// which this package then leaves alone.
func userSetGOMAXPROCS() bool { return os.Getenv("GOMAXPROCS") != "" }

// workerGOMAXPROCS returns the environment variable that gives a worker
// process of cores cores a thread running Go code for each, and one for
// its messages; "" when the user set GOMAXPROCS (the workers inherit it).
func workerGOMAXPROCS(cores int) string {
	if userSetGOMAXPROCS() {
		return ""
	}
	return "GOMAXPROCS=" + strconv.Itoa(max(cores, 1)+1)
}

// coordinatorShare returns how many threads running Go code the
// coordinator keeps while procs worker processes of cores cores each run
// on a machine of cpus cores: the cores they leave, one at least, and
// never more than it has (current).
func coordinatorShare(cpus, procs, cores, current int) int {
	return max(1, min(current, cpus-procs*cores))
}

// shareCores keeps this process, the coordinator of procs worker processes
// of cores cores it starts on this machine, to the cores they leave, and
// returns the function that gives it back the runtime's default.
func shareCores(procs, cores int) (restore func()) {
	if userSetGOMAXPROCS() {
		return func() {}
	}
	current := runtime.GOMAXPROCS(0)
	share := coordinatorShare(runtime.NumCPU(), procs, cores, current)
	if share == current {
		return func() {}
	}
	runtime.GOMAXPROCS(share)
	return runtime.SetDefaultGOMAXPROCS
}
