package workspan

import "github.com/presage-dvm/presage/sim/machine"

// times is one moment in the two schedules computed side by side: lane
// plain, where edges between orders are free, and lane burdened, where
// each costs a message.
type times [2]float64

const (
	plain = iota
	burdened
)

// later returns the later of a and b in each lane.
func later(a, b times) times { return times{max(a[0], b[0]), max(a[1], b[1])} }

// plus returns t moved by own time d in both lanes and by message cost c
// in the burdened one.
func (t times) plus(d, c float64) times { return times{t[0] + d, t[1] + d + c} }

// minus returns t moved back by own time d.
func (t times) minus(d float64) times { return times{t[0] - d, t[1] - d} }

// Network prices the messages of the burdened span: a make edge carries
// the child's arguments, a result edge the result. It is the one
// message-cost model, the link between the cluster's nodes
// (machine.Cluster.Link), priced by its MessageTime; a hub's queueing
// is not part of a span (its messages wait for no others).
type Network = machine.Link
