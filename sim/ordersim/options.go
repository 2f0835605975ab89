package ordersim

import (
	"fmt"

	"github.com/presage-dvm/presage/orders/ordersched"
)

// Options choose the scheduler and what the simulation reports.
type Options struct {
	Scheduler Scheduler // empty means FIFO
	Seed      uint64    // WorkStealing's choice of victims
	// LocalitySlack is how many more unfinished orders than the least
	// loaded node the parent's node may hold and still receive a child
	// under Locality; 0 means 1.
	LocalitySlack int
	// Pin makes an order whose result arrived resume only on the node it
	// started on, waiting for a core there (the seed's rule). By default
	// it resumes there when a core is free, else on the lowest-numbered
	// node with one (its state moving for free): pinned, a DAG whose main
	// order makes every task piles the tasks that suspend on the node
	// that was free at the time, and runs them there one after the other
	// (docs/orders-sim.md, "Resuming").
	Pin bool
	// OnOrder, when set, receives the schedule of every order as it
	// finishes, in order of finishing.
	OnOrder func(OrderResult)
	// Progress, when set, receives the number of orders finished every
	// ProgressEvery orders, for a progress display: unlike OnOrder it
	// costs nothing per order.
	Progress func(finished int64)
	// Stop, when set, is asked every ProgressEvery orders read and every
	// ProgressEvery orders finished: an error it returns ends the
	// simulation with that error (ctx.Err stops it within milliseconds
	// of a cancelled context, the simulation keeping no state of its own
	// beyond the call).
	Stop func() error
	// ByProc sums the orders by procedure into Result.Procs. It keeps
	// of every live order its wait so far alone (8 bytes; its start is
	// in the entry), not its schedule as OnOrder does.
	ByProc bool
	// NoCriticalPath skips the critical path, which costs a few small
	// records per order while it is live.
	NoCriticalPath bool
	// PathSteps, when > 0, keeps of the critical path only its PathSteps
	// longest steps (of equal lengths, the earlier), in path order: a
	// master waiting for ten million tasks has a path of ten million
	// steps, of which the longest say where the time goes.
	PathSteps int
	// SharedMemory makes the nodes the cores of one machine, as the
	// runtime's local workers are: the trace's slowdown
	// (ordertrace.Header.Slowdown) counts the orders running on every
	// node, not only on the order's own.
	SharedMemory bool
	// Workspace, when set, is the memory the simulation takes its
	// biggest arenas from and leaves them in when it returns, for the
	// caller's next simulation: a sweep's simulations on one Workspace
	// zero their pages once, not each time. One Workspace serves one
	// simulation at a time; Sizes gives each of its simulations one of
	// its own and ignores this field.
	Workspace *Workspace
}

// ProgressEvery is how many orders finish between two calls of
// Options.Progress.
const ProgressEvery = 1 << 16

func (o Options) validate() error {
	if _, err := ordersched.Parse(string(o.Scheduler)); err != nil {
		return fmt.Errorf("ordersim: %w", err)
	}
	if o.LocalitySlack < 0 {
		return fmt.Errorf("ordersim: locality slack %d (expected ≥ 0)", o.LocalitySlack)
	}
	return nil
}

func (o Options) scheduler() Scheduler {
	if o.Scheduler == "" {
		return ordersched.Default
	}
	return o.Scheduler
}

func (o Options) slack() int {
	if o.LocalitySlack == 0 {
		return 1
	}
	return o.LocalitySlack
}

// OrderResult is the schedule of one order. Times are moments of the
// simulated run.
type OrderResult struct {
	ID     int64
	Proc   string // the procedure it ran
	Parent int64  // the order that made it; 0 for main
	// Child is its place among its parent's children, in order of
	// making, from 0: with Parent, it names the order in a real run of
	// the same program, whose ids differ (orders/measured).
	Child int
	Node  int     // where it ran (where it ended, if it migrated)
	Made  float64 // when its parent made it
	Ready float64 // when it could start: made, plus the arguments' transfer when they move at once
	Start float64 // when it began its own work
	End   float64
	// Wait is the time it spent suspended on requests, Transfer the time
	// its arguments delayed it (counted in Start − Made).
	Wait, Transfer float64
	// Stretches are the stretches it ran, in time order: each from its
	// start or a resume to a suspension or its end; between two it was
	// suspended, holding no core, and End − Start is their sum plus Wait.
	// The slice is valid only during the call to OnOrder, the simulation
	// reusing its memory: copy it to keep it.
	Stretches []Stretch
}

// Stretch is a stretch of time an order ran on a node without a wait.
type Stretch struct {
	Node       int
	Start, End float64
}
