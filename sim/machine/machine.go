// Package machine holds the machine model the simulator consumes: a tree
// of clusters whose leaves are the processors, with message start-up
// times, times per byte, channels and processor powers. The machine file
// readers (ingest/machinefile) parse into it.
package machine

// Format names of machine files.
const (
	FormatCluster = "cluster" // Predictor 3.1 cluster tree
	FormatFlat    = "flat"    // 2000 design: type, start time, send byte time, power, topology
)

// Node is one cluster instance of the machine tree. A node without children
// is a leaf, that is one processor; only leaves have a Power and only
// composite nodes have channels and message parameters.
type Node struct {
	Name     string
	Power    float64 // relative processor power (leaves)
	TStart   float64 // message start-up time, seconds
	TByte    float64 // time per byte, seconds
	Channels int     // independent channels of this cluster (0 for leaves)
	CommType string  // myrinet, ethernet, transputer, ... (no effect on timing)
	// Messages, when given, are measured times of messages of some sizes
	// between the cluster's children (a machine file's NAME.messages, the
	// extended model; nil in the original's): a message's time follows
	// them piece-wise linearly (Link.Transfer), and TStart and TByte stay
	// the line of the formulas that need one (the bus, the mesh, the
	// ACROSS pipeline).
	Messages []MessagePoint
	Children []*Node
}

// IsLeaf reports whether n is a processor.
func (n *Node) IsLeaf() bool { return len(n.Children) == 0 }

// Machine is a parsed machine file.
type Machine struct {
	Name     string // name of the modelled (root) cluster
	Root     *Node
	Search   int    // search= mode of the file (docs/model.md §1.7)
	Format   string // FormatCluster or FormatFlat
	Topology []int  // processor grid of a flat file (nil for cluster files)
	Warnings []string
	// RunWork is the extended model's run work, seconds per process: what
	// a real run's program spends beyond its trace (the run-time's start
	// and finish, the statistics it gathers), charged to every process at
	// the trace's end (docs/deviations.md, "The extended model"). 0, the
	// original's model, unless a machine file's runwork statement sets it.
	RunWork float64
	// IOByte is the extended model's I/O copy time, seconds per byte of a
	// distributed array an I/O statement copies through its buffer,
	// charged to the I/O processor at the copy (docs/deviations.md, "The
	// extended model"). 0, the original's model, unless a machine file's
	// iobyte statement sets it.
	IOByte float64
	// Contention is the extended model's node contention, a fraction:
	// each other process of a run on a processor's node makes the
	// processor's work take that much longer (the cores of a node share
	// its memory bandwidth, its caches and whatever else the host runs;
	// a run on one core of a node leaves the others that work).
	// docs/deviations.md, "The extended model". 0, the original's model,
	// unless a machine file's contention statement sets it.
	Contention float64
	// Strided is the extended model's strided iteration time, seconds per
	// iteration of an ACROSS loop whose pipeline cuts the loop's array
	// along its contiguous dimension: each portion then sweeps every
	// column of the array in a short segment, which the memory's
	// prefetching does not hide (docs/compare.md, "The pipelined loop's
	// portions"). Charged to each processor for its iterations of such a
	// loop (docs/deviations.md, "The extended model"). 0, the original's
	// model, unless a machine file's strided statement sets it.
	Strided float64
	// FreshPage is the extended model's fresh page time, seconds per page
	// of PageBytes: what the host takes to give a process a page of memory
	// it never touched (a page fault), the price of the buffers an I/O
	// statement's copy packs and receives its parts in, each process's
	// buffers growing to the largest part it has sent or received
	// (docs/compare.md, "Where the time goes", item 5). 0, the original's
	// model, unless a machine file's freshpage statement sets it.
	FreshPage float64
}

// PageBytes is the size of a page of memory the fresh page time
// (Machine.FreshPage) prices: 4 KB, the page of x86-64 and of most hosts.
const PageBytes = 4096

// Processors returns the number of leaves.
func (m *Machine) Processors() int { return countLeaves(m.Root) }

func countLeaves(n *Node) int {
	if n == nil {
		return 0
	}
	if n.IsLeaf() {
		return 1
	}
	total := 0
	for _, c := range n.Children {
		total += countLeaves(c)
	}
	return total
}

// Leaves returns the processors in depth-first, left-to-right order: the
// index in the result is the processor's physical id.
func (m *Machine) Leaves() []*Node {
	var out []*Node
	m.eachLeaf(func(leaf, _ *Node) { out = append(out, leaf) })
	return out
}

// eachLeaf calls visit with every processor, in Leaves' order, and the
// cluster it is a child of (nil for a machine of one processor).
func (m *Machine) eachLeaf(visit func(leaf, parent *Node)) {
	var walk func(parent, n *Node)
	walk = func(parent, n *Node) {
		if n.IsLeaf() {
			visit(n, parent)
			return
		}
		for _, c := range n.Children {
			walk(n, c)
		}
	}
	if m.Root != nil {
		walk(nil, m.Root)
	}
}

// BusyNeighbours returns, for each of the first n processors (the
// processors a run of n processes uses, Leaves' order), how many others
// of them share its node: the processors of its parent cluster.
func (m *Machine) BusyNeighbours(n int) []int {
	var parents []*Node // each leaf's parent cluster, in Leaves' order
	m.eachLeaf(func(_, parent *Node) { parents = append(parents, parent) })
	parents = parents[:min(n, len(parents))]
	busy := map[*Node]int{}
	for _, p := range parents {
		busy[p]++
	}
	out := make([]int, len(parents))
	for k, p := range parents {
		out[k] = busy[p] - 1
	}
	return out
}

// TopLevel returns the message start-up time and time per byte of the
// root cluster, the one that connects its nodes (zero for a machine of one
// processor).
func (m *Machine) TopLevel() (tstart, tbyte float64) {
	if m.Root == nil || m.Root.IsLeaf() {
		return 0, 0
	}
	return m.Root.TStart, m.Root.TByte
}

// MeanPower returns the mean power of the first n processors (all when n
// exceeds them): the processors a grid of n uses.
func (m *Machine) MeanPower(n int) float64 {
	leaves := m.Leaves()
	n = min(n, len(leaves))
	if n == 0 {
		return 0
	}
	sum := 0.0
	for _, l := range leaves[:n] {
		sum += l.Power
	}
	return sum / float64(n)
}

// WithOverrides returns a deep copy of m in which a non-zero tstart or tbyte
// (seconds) replaces the TStart or TByte of every composite cluster, and
// its measured Messages (the swept line is then the link), and a
// non-zero power replaces the power of every processor. Parameter sweeps use
// it; m itself is not changed.
func (m *Machine) WithOverrides(tstart, tbyte, power float64) *Machine {
	c := *m
	c.Topology = append([]int(nil), m.Topology...)
	c.Warnings = append([]string(nil), m.Warnings...)
	c.Root = copyNode(m.Root, tstart, tbyte, power)
	return &c
}

func copyNode(n *Node, tstart, tbyte, power float64) *Node {
	if n == nil {
		return nil
	}
	c := *n
	if n.IsLeaf() {
		if power != 0 {
			c.Power = power
		}
		return &c
	}
	if tstart != 0 {
		c.TStart = tstart
	}
	if tbyte != 0 {
		c.TByte = tbyte
	}
	if tstart != 0 || tbyte != 0 {
		c.Messages = nil
	}
	c.Children = make([]*Node, len(n.Children))
	for i, ch := range n.Children {
		c.Children[i] = copyNode(ch, tstart, tbyte, power)
	}
	return &c
}
