package network

import (
	"fmt"
	"strings"

	"github.com/presage-dvm/presage/sim/machine"
)

// Kind selects the message-time model of a Net.
type Kind uint8

const (
	// Cluster is the original's model: per-cluster channels with queues.
	Cluster Kind = iota
	// Bus is the 2000 design's shared bus: messages cannot overlap.
	Bus
	// Mesh is the 2000 design's transputer grid: store-and-forward over the
	// Manhattan distance in the processor grid, with pipelining.
	Mesh
)

// Names are the network model names in Kind order.
var Names = []string{"cluster", "bus", "mesh"}

func (k Kind) String() string {
	if int(k) < len(Names) {
		return Names[k]
	}
	return fmt.Sprintf("Kind(%d)", k)
}

// ParseKind reads a network name; "" is the default, Cluster.
func ParseKind(name string) (Kind, error) {
	if name == "" {
		return Cluster, nil
	}
	for k, n := range Names {
		if strings.EqualFold(name, n) {
			return Kind(k), nil
		}
	}
	return 0, fmt.Errorf("unknown network %q: valid networks are %s", name, strings.Join(Names, ", "))
}

// Msg is one message of an exchange: bytes from processor From to To.
type Msg struct {
	From, To int
	Bytes    int64
}

// NewModel builds the network of machine m as a model of the given kind.
// grid is the processor grid (row-major, last dimension fastest): the mesh
// measures distances in it. Bus and mesh use the root cluster's link as a
// line, TStart and TByte; the bus is a single channel, the mesh has no
// channel state.
func NewModel(m *machine.Machine, kind Kind, grid []int) (*Net, error) {
	if kind > Mesh {
		return nil, fmt.Errorf("network: unknown kind %d", kind)
	}
	n := New(m)
	n.kind = kind
	if kind == Cluster {
		return n, nil
	}
	if m.Root != nil && !m.Root.IsLeaf() {
		n.ts, n.tb = m.Root.Link().Line()
	}
	n.grid = append([]int(nil), grid...)
	n.busy, n.restorer = nil, nil
	if kind == Bus {
		n.busy, n.restorer = []float64{0}, []int32{0}
	}
	return n, nil
}

// Kind returns the model of n.
func (n *Net) Kind() Kind { return n.kind }

// Distance is GetDistance (docs/model.md §1.6): the Manhattan distance between
// processors a and b in the processor grid of a mesh (0 for other kinds).
func (n *Net) Distance(a, b int) int {
	d := 0
	for i := len(n.grid) - 1; i >= 0; i-- {
		g := n.grid[i]
		x, y := a%g, b%g
		d += max(x-y, y-x)
		a, b = a/g, b/g
	}
	return d
}

// sendModel is Send on a bus (one channel, ts + bytes·tb per message,
// queued) or a mesh (no contention, MeshTime over the distance).
func (n *Net) sendModel(a, b int, bytes int64, ts float64) (t0, begin, end float64) {
	t0 = float64(float32(ts))
	if n.kind == Bus {
		begin = max(t0, n.busy[0])
		end = begin + n.ts + float64(float64(bytes)*n.tb)
		n.busy[0] = end
		return t0, begin, end
	}
	if l := n.Distance(a, b); l == 1 {
		end = t0 + n.ts + float64(float64(bytes)*n.tb)
	} else {
		end = t0 + MeshTime(n.ts, n.tb, l, bytes)
	}
	return t0, t0, end
}

// Exchange is the duration of an exchange of msgs (no message to self) on
// a bus (BusTime) or a mesh (MeshTime of the longest distance and the
// largest message over it); 0 for the cluster model, whose exchanges are
// sent message by message.
func (n *Net) Exchange(msgs []Msg) float64 {
	switch n.kind {
	case Bus:
		sum := 0.0
		for _, m := range msgs {
			sum += message(n.ts, n.tb, m.Bytes)
		}
		return sum
	case Mesh:
		l, lb := 0, int64(0)
		for _, m := range msgs {
			switch d := n.Distance(m.From, m.To); {
			case d > l:
				l, lb = d, m.Bytes
			case d == l:
				lb = max(lb, m.Bytes)
			}
		}
		return MeshTime(n.ts, n.tb, l, lb)
	}
	return 0
}

// Occupy marks the bus busy until end (after an exchange costed by
// Exchange), so that later point-to-point messages queue behind it.
func (n *Net) Occupy(end float64) {
	if n.kind == Bus {
		n.busy[0] = max(n.busy[0], end)
	}
}

// Reduction is the duration of a reduction of total bytes on a bus or mesh
// whose loop is distributed over the grid dimensions marked in dist (the
// other dimensions hold copies of the partial results); 0 for the cluster
// model, whose reductions are sent message by message.
func (n *Net) Reduction(total int64, dist []bool) float64 {
	s, all := 1, 1
	distance, corner := 0, 0
	for i, g := range n.grid {
		all *= g
		if i < len(dist) && dist[i] {
			s *= g
			distance += g / 2
		} else {
			corner += g - 1
		}
	}
	switch n.kind {
	case Bus:
		return BusReduction(n.ts, n.tb, total, s, all)
	case Mesh:
		return MeshReduction(n.ts, n.tb, total, distance, corner)
	}
	return 0
}
