package ordersim

// Result is what a simulation predicts.
type Result struct {
	Makespan float64 // when the last order ends
	Orders   int64
	Nodes    []NodeStats
	Total    NodeStats // the sum over the nodes
	// NodesUsed is one more than the highest-numbered node that ever
	// received an order: Sweep reuses a schedule for larger clusters
	// when it is below the number of nodes (docs/orders-sim.md).
	NodesUsed int
	// PeakLive and PeakBuffered are the largest numbers of orders the
	// simulation held at once: live ones (made, or kept because their
	// results may still be requested) and ones read ahead of their making.
	PeakLive, PeakBuffered int
	// CriticalPath is the chain of steps that ends at the makespan, from
	// the start of the main order, or its Options.PathSteps longest;
	// empty with Options.NoCriticalPath. PathSteps is the number of
	// steps of the whole chain.
	CriticalPath []Step
	PathSteps    int
	// Procs sums every order of the run by procedure, by name; nil
	// unless Options.ByProc.
	Procs []ProcStats
}

// ProcStats sums the orders of one procedure.
type ProcStats struct {
	Proc   string
	Orders int64
	Work   float64 // time running: the sum of its orders' stretches
	// PathTime is the time the critical path spends running its orders
	// (its run steps; its transfers and queues are not counted), 0
	// with Options.NoCriticalPath.
	PathTime float64
	// MeanDuration and SDDuration are the mean and the standard
	// deviation (of the population) of its orders' End − Start, waits
	// included.
	MeanDuration, SDDuration float64
}

// NodeStats is a node's time, in core-seconds: Busy + Transfer + Waiting
// + Idle = Cores × Makespan.
type NodeStats struct {
	Busy     float64 // running orders
	Transfer float64 // holding a core while an order's arguments arrive
	Waiting  float64 // a free core while the node holds suspended orders only
	Idle     float64 // a free core and nothing suspended
	Orders   int64   // orders started on the node
}

func (s *NodeStats) add(o NodeStats) {
	s.Busy += o.Busy
	s.Transfer += o.Transfer
	s.Waiting += o.Waiting
	s.Idle += o.Idle
	s.Orders += o.Orders
}

// StepKind says what happened during a step of the critical path.
type StepKind uint8

// The kinds of step.
const (
	Exec     StepKind = iota // the order ran on its node
	Transfer                 // arguments or a result crossed the network
	Queue                    // the order was ready but its node had no free core
)

func (k StepKind) String() string {
	switch k {
	case Exec:
		return "run"
	case Transfer:
		return "transfer"
	case Queue:
		return "queue"
	}
	return "?"
}

// Step is one stretch of the critical path: Order, of procedure Proc,
// ran, or waited for a transfer or a core, from Start to End on Node.
type Step struct {
	Kind       StepKind
	Index      int // its place in the whole path, from 0
	Order      int64
	Proc       string
	Node       int
	Start, End float64
}
