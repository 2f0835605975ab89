package fit

import (
	"fmt"
	"math"
	"strings"

	"github.com/presage-dvm/presage/sim/machine"
)

// Levels is the number of levels of the cluster tree Host.Machine
// builds: between nodes (0) and inside a node (1).
const Levels = 2

// Params are the machine parameters the model uses.
type Params struct {
	Power  float64         // processor power relative to the traced run (1 = as fast)
	TStart [Levels]float64 // message start-up time per level, seconds
	TByte  [Levels]float64 // time per byte per level, seconds
	// Oversub is the time, in seconds, a message waits for its receiver
	// to be scheduled per extra process on a core, where processes
	// outnumber cores.
	Oversub float64
	// RunWork is the extended model's run work, seconds per process
	// (machine.Machine.RunWork): what a real run spends beyond its trace.
	// 0 in the original's model.
	RunWork float64
	// IOByte is the extended model's I/O copy time, seconds per byte an
	// I/O statement copies (machine.Machine.IOByte). Not a Param: runs of
	// one program's trace all copy the same bytes, so Fit cannot tell it
	// from the run work; FitHost fits it where the runs copy different
	// amounts (IOByteBounds). 0 in the original's model.
	IOByte float64
	// Contention is the extended model's node contention, a fraction of
	// a processor's work per other process on its node
	// (machine.Machine.Contention). 0 in the original's model.
	Contention float64
	// Strided is the extended model's strided iteration time, seconds per
	// iteration of an ACROSS loop pipelined across its array's contiguous
	// dimension (machine.Machine.Strided). 0 in the original's model.
	Strided float64
	// FreshPage is the extended model's fresh page time, seconds per page
	// (machine.Machine.FreshPage). Not a Param: a micro-benchmark of the
	// host prices it, not the fit. 0 in the original's model.
	FreshPage float64
}

// IOByteBounds are the least and largest I/O copy time per byte FitHost
// gives (Params.IOByte): a copy through a cache-resident buffer takes
// 0.01 ns a byte (100 GB/s), a write to a slow disk 100 ns (10 MB/s).
var IOByteBounds = [2]float64{1e-11, 1e-7}

// Param names one parameter of Params.
type Param int

const (
	Power Param = iota
	TStartNodes
	TStartNode
	TByteNodes
	TByteNode
	Oversub
	RunWork
	Contention
	Strided
	NumParams
)

var paramNames = [NumParams]string{"power", "tstart-between-nodes", "tstart-in-node", "tbyte-between-nodes", "tbyte-in-node", "oversubscription", "run-work", "contention", "strided"}

func (q Param) String() string { return paramNames[q] }

// Bounds are the least and largest value the fit gives each parameter:
// the range a real MPI on one machine or on a cluster can have, so that a
// fitted machine is one that could exist and a parameter the observations
// hardly tell cannot run away to an absurd value.
var Bounds = [NumParams][2]float64{
	// The power, fitted only when the measured runs ran on another host
	// than the traced one: a core between 20 times slower and 20 times
	// faster than the traced one (two decades cover every processor
	// generation the DVM ran on); within machine.PowerRange, so that a
	// fitted machine file is one a machine file may be.
	Power: {0.05, 20},
	// Between nodes: no interconnect starts a message in less than about
	// 1 µs (RDMA over InfiniBand), and none that works takes more than
	// 10 ms (TCP over a slow, loaded ethernet takes 50–500 µs).
	TStartNodes: {1e-6, 1e-2},
	// Inside a node: an MPI's shared-memory path starts a message in
	// 0.1–1 µs on a quiet node, and no more than 1 ms when the receiver
	// is busy (more than that is waiting, not a start-up: Oversub's).
	TStartNode: {1e-7, 1e-3},
	// Between nodes: 1 MB/s (10 Mbit/s ethernet) to 50 GB/s (400 Gbit/s).
	TByteNodes: {2e-11, 1e-6},
	// Inside a node: a copy through memory, 100 MB/s (a loaded, old node)
	// to 100 GB/s (a cache-resident copy).
	TByteNode: {1e-11, 1e-8},
	// Where processes outnumber cores: at least a context switch (1 µs),
	// at most a few of the scheduler's time slices (Linux CFS's latency
	// target is 6–24 ms).
	Oversub: {1e-6, 5e-2},
	// The run work of the extended model: from 1 µs (next to nothing) to
	// 1 s, far beyond the milliseconds a run-time takes to start and
	// finish a process.
	RunWork: {1e-6, 1},
	// The node contention of the extended model: from 0.1% a busy
	// neighbour (next to nothing) to 100% (a neighbour that doubles a
	// core's work, far beyond what sharing a node's memory costs;
	// machine.ContentionRange).
	Contention: {1e-3, 1},
	// The strided iteration time of the extended model: from 0.01 ns an
	// iteration (next to nothing) to 100 ns (a wait on memory at every
	// iteration, far beyond one wait per segment of a column;
	// machine.StridedRange).
	Strided: {1e-11, 1e-7},
}

func (p *Params) ref(q Param) *float64 {
	switch q {
	case Power:
		return &p.Power
	case TStartNodes:
		return &p.TStart[0]
	case TStartNode:
		return &p.TStart[1]
	case TByteNodes:
		return &p.TByte[0]
	case TByteNode:
		return &p.TByte[1]
	case RunWork:
		return &p.RunWork
	case Contention:
		return &p.Contention
	case Strided:
		return &p.Strided
	}
	return &p.Oversub
}

// Get returns parameter q.
func (p Params) Get(q Param) float64 { return *p.ref(q) }

// Set returns p with parameter q set to v.
func (p Params) Set(q Param, v float64) Params {
	*p.ref(q) = v
	return p
}

// FromMachine takes the starting parameters (the fit's prior) from a
// machine: the power of its first processor, the TStart and TByte of its
// root (between nodes) and of the root's first child (inside a node; the
// root's again when the child is a processor), and an oversubscription
// latency equal to the node's start-up time. The values are the
// machine's, not clamped to Bounds: a parameter the fit leaves alone
// keeps its machine file's value (Fit clamps only what it fits).
func FromMachine(m *machine.Machine) Params {
	p := Params{Power: 1, RunWork: m.RunWork, IOByte: m.IOByte, Contention: m.Contention, Strided: m.Strided, FreshPage: m.FreshPage}
	if leaves := m.Leaves(); len(leaves) > 0 && leaves[0].Power > 0 {
		p.Power = leaves[0].Power
	}
	r := m.Root
	p.TStart[0], p.TByte[0] = r.TStart, r.TByte
	p.TStart[1], p.TByte[1] = r.TStart, r.TByte
	if len(r.Children) > 0 && !r.Children[0].IsLeaf() {
		p.TStart[1], p.TByte[1] = r.Children[0].TStart, r.Children[0].TByte
	}
	p.Oversub = clamp(Oversub, p.TStart[1])
	return p
}

func clamp(q Param, v float64) float64 {
	if math.IsNaN(v) || v <= 0 {
		return Bounds[q][0]
	}
	return math.Min(math.Max(v, Bounds[q][0]), Bounds[q][1])
}

// String shows the parameters in the machine files' units (µs).
func (p Params) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "power %.4g", p.Power)
	for l, name := range []string{"between nodes", "in a node"} {
		fmt.Fprintf(&b, ", %s TStart %.4g µs TByte %.4g µs", name, p.TStart[l]*1e6, p.TByte[l]*1e6)
	}
	fmt.Fprintf(&b, ", oversubscription %.4g µs per message and extra process", p.Oversub*1e6)
	if p.RunWork > 0 {
		fmt.Fprintf(&b, ", run work %.4g µs per process", p.RunWork*1e6)
	}
	if p.IOByte > 0 {
		fmt.Fprintf(&b, ", I/O copy time %.4g ns per byte", p.IOByte*1e9)
	}
	if p.Contention > 0 {
		fmt.Fprintf(&b, ", contention %.4g%% per busy neighbour", p.Contention*100)
	}
	if p.Strided > 0 {
		fmt.Fprintf(&b, ", strided iteration time %.4g ns", p.Strided*1e9)
	}
	if p.FreshPage > 0 {
		fmt.Fprintf(&b, ", fresh page time %.4g µs", p.FreshPage*1e6)
	}
	return b.String()
}

// Free are the parameters that runs of procs processes on h can tell:
// the power only when powerFree (the runs ran on another host than the
// traced run; on the traced host one process is the trace itself, and
// the power stays 1), the node's messages always, the messages between
// nodes when a run spans nodes, the oversubscription latency when a run
// oversubscribes, and the extended model's run work and strided
// iteration time when extended (Fit leaves the latter unused where no run
// pipelines a loop across its array's contiguous dimension), with its node
// contention when a run puts several processes on a node.
func Free(h Host, procs []int, powerFree, extended bool) []Param {
	var free []Param
	if powerFree {
		free = append(free, Power)
	}
	free = append(free, TStartNode, TByteNode)
	spans, over, shared := false, false, false
	for _, n := range procs {
		spans = spans || h.Nodes > 1 && n > 1 && h.ProcsPerNode(n) < n
		over = over || h.Oversubscribed(n)
		shared = shared || h.ProcsPerNode(n) > 1
	}
	if spans {
		free = append(free, TStartNodes, TByteNodes)
	}
	if over {
		free = append(free, Oversub)
	}
	if extended {
		free = append(free, RunWork, Strided)
	}
	if extended && shared {
		free = append(free, Contention)
	}
	return free
}
