package result

// NodeTime is how a node of an orders-based run (a simulated cluster node,
// or a worker of a real run) spent the run, in seconds of each of its
// cores summed.
type NodeTime struct {
	Busy     float64 // running orders
	Idle     float64 // a free core with nothing to run
	Waiting  float64 // a free core while the node's orders wait for results
	Transfer float64 // a core held while arguments arrive
}

// Add adds u to t.
func (t *NodeTime) Add(u NodeTime) {
	t.Busy += u.Busy
	t.Idle += u.Idle
	t.Waiting += u.Waiting
	t.Transfer += u.Transfer
}

// Values maps t onto the characteristics, for a node (or a cluster) of
// cores cores over a run of makespan seconds (docs/orders-sim.md, "In the
// store: runs and characteristics"): busy time is productive, idle time is
// insufficient parallelism, transfers are communication and waits for
// results are synchronization.
func (t NodeTime) Values(makespan float64, cores int) Values {
	var v Values
	total := makespan * float64(cores)
	v[ExecutionTime] = makespan
	v[TotalTime] = total
	v[ProductiveTime] = t.Busy
	v[ProductiveCPUTime] = t.Busy
	v[LostTime] = total - t.Busy
	v[InsuffParallelism] = t.Idle
	v[InsuffParallelismUsr] = t.Idle
	v[Communication] = t.Transfer
	v[Synchronization] = t.Waiting
	if total > 0 {
		v[Efficiency] = t.Busy / total
	}
	return v
}

// NodesRun is an orders-based run as a run of the store: one interval,
// Main, named program, whose characteristics are the nodes' time and whose
// per-processor values are each node's. Every node has cores cores.
func NodesRun(kind Kind, program string, makespan float64, cores int, nodes []NodeTime) *Run {
	var total NodeTime
	main := &Interval{ID: 1, Type: Main, Count: 1, File: program}
	for i, n := range nodes {
		total.Add(n)
		v := n.Values(makespan, cores)
		main.Procs = append(main.Procs, ProcValues{Proc: i, Values: &v})
	}
	main.Values = total.Values(makespan, len(nodes)*cores)
	return &Run{Kind: kind, Program: program, Config: Config{Grid: []int{len(nodes)}},
		Intervals: []*Interval{main}, ReportRoot: 1}
}
