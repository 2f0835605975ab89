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
}

// Param names one parameter of Params.
type Param int

const (
	Power Param = iota
	TStartNodes
	TStartNode
	TByteNodes
	TByteNode
	Oversub
	NumParams
)

var paramNames = [NumParams]string{"power", "tstart-between-nodes", "tstart-in-node", "tbyte-between-nodes", "tbyte-in-node", "oversubscription"}

func (q Param) String() string { return paramNames[q] }

// Bounds are the least and largest value the fit gives each parameter:
// wide enough for any real machine, narrow enough that a parameter no
// observation depends on cannot run away; the power's are its physical
// range (machine.PowerRange), so that a fitted machine file is one a
// machine file may be.
var Bounds = [NumParams][2]float64{
	Power:       {machine.PowerRange.Min, machine.PowerRange.Max},
	TStartNodes: {1e-8, 1},
	TStartNode:  {1e-8, 1},
	TByteNodes:  {1e-13, 1e-4},
	TByteNode:   {1e-13, 1e-4},
	Oversub:     {1e-8, 1},
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

// FromMachine takes the starting parameters from a machine: the power of
// its first processor, the TStart and TByte of its root (between nodes)
// and of the root's first child (inside a node; the root's again when the
// child is a processor), and an oversubscription latency equal to the
// node's start-up time.
func FromMachine(m *machine.Machine) Params {
	p := Params{Power: 1}
	if leaves := m.Leaves(); len(leaves) > 0 && leaves[0].Power > 0 {
		p.Power = leaves[0].Power
	}
	r := m.Root
	p.TStart[0], p.TByte[0] = r.TStart, r.TByte
	p.TStart[1], p.TByte[1] = r.TStart, r.TByte
	if len(r.Children) > 0 && !r.Children[0].IsLeaf() {
		p.TStart[1], p.TByte[1] = r.Children[0].TStart, r.Children[0].TByte
	}
	p.Oversub = p.TStart[1]
	for q := range NumParams {
		p = p.Set(q, clamp(q, p.Get(q)))
	}
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
	return b.String()
}
