package fit

import (
	"fmt"
	"math"

	"github.com/presage-dvm/presage/sim/machine"
)

// Host describes the machine a measurement ran on.
type Host struct {
	Nodes        int    // nodes of the host
	CoresPerNode int    // cores of each node
	Network      string // the interconnect's name, for the reports ("shared-memory", "ethernet")
}

// Check says what is wrong with h, if anything.
func (h Host) Check() error {
	if h.Nodes < 1 || h.CoresPerNode < 1 {
		return fmt.Errorf("host of %d nodes of %d cores: expected at least one node of at least one core", h.Nodes, h.CoresPerNode)
	}
	return nil
}

// Cores is the number of cores of the host.
func (h Host) Cores() int { return h.Nodes * h.CoresPerNode }

// ProcsPerNode is how many of procs processes a node runs: the processes
// fill the nodes evenly.
func (h Host) ProcsPerNode(procs int) int { return (procs + h.Nodes - 1) / h.Nodes }

// ProcsPerCore is how many processes share a core when procs run on the
// host (1 when they do not outnumber the cores), as a ratio: 4 processes
// on 2 cores give 2.
func (h Host) ProcsPerCore(procs int) float64 {
	return math.Max(1, float64(h.ProcsPerNode(procs))/float64(h.CoresPerNode))
}

// Oversubscribed reports whether procs processes outnumber the cores of a
// node.
func (h Host) Oversubscribed(procs int) bool { return h.ProcsPerCore(procs) > 1 }

// Machine is the machine the model simulates for a run of procs
// processes on h with parameters p: a cluster of h.Nodes nodes (level 0:
// between nodes) of ProcsPerNode(procs) processors each, at least a
// node's cores (level 1: inside a node; the engine prices a pipeline's
// neighbours even on one processor). Where processes outnumber cores, the
// processes of a core share it (the power is divided by ProcsPerCore) and
// every message waits for its receiver to be scheduled (TStart grows by
// p.Oversub per extra process on the core). p.RunWork, p.IOByte,
// p.Contention, p.Strided and p.FreshPage are the machine's run work, I/O
// copy time, node contention, strided iteration time and fresh page time.
func (h Host) Machine(name string, p Params, procs int) *machine.Machine {
	share := h.ProcsPerCore(procs)
	wait := p.Oversub * (share - 1)
	p.Power /= share
	p.TStart[0] += wait
	p.TStart[1] += wait
	return h.FileMachine(name, p, max(h.ProcsPerNode(procs), h.CoresPerNode))
}

// FileMachine is the machine a fitted machine file describes: h.Nodes
// nodes of slots processors, with p's power, start-up times, times per
// byte, run work, I/O copy time, node contention, strided iteration time
// and fresh page time (a machine file has no place for the oversubscription latency: a
// prediction on the file alone models processes that do not outnumber
// cores).
func (h Host) FileMachine(name string, p Params, slots int) *machine.Machine {
	nodes := make([]*machine.Node, h.Nodes)
	for i := range nodes {
		n := &machine.Node{Name: name + "N", TStart: p.TStart[1], TByte: p.TByte[1], Channels: 1, CommType: h.Network}
		for range max(slots, 1) {
			n.Children = append(n.Children, &machine.Node{Name: name + "P", Power: p.Power})
		}
		nodes[i] = n
	}
	root := &machine.Node{Name: name, TStart: p.TStart[0], TByte: p.TByte[0], Channels: 1, CommType: h.Network, Children: nodes}
	return &machine.Machine{Name: name, Root: root, Format: machine.FormatCluster, RunWork: p.RunWork, IOByte: p.IOByte, Contention: p.Contention, Strided: p.Strided, FreshPage: p.FreshPage}
}
