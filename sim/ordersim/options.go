package ordersim

import (
	"fmt"

	"github.com/presage-dvm/presage/sim/ordersched"
)

// Options choose the scheduler and what the simulation reports.
type Options struct {
	Scheduler Scheduler // empty means FIFO
	Seed      uint64    // WorkStealing's choice of victims
	// LocalitySlack is how many more unfinished orders than the least
	// loaded node the parent's node may hold and still receive a child
	// under Locality; 0 means 1.
	LocalitySlack int
	// Migrate lets an order whose result arrived resume on another node
	// when its own has no free core (its state moving for free), which
	// makes FIFO and WorkStealing greedy; by default it resumes on the
	// node it started on (docs/orders-sim.md, "Resuming").
	Migrate bool
	// OnOrder, when set, receives the schedule of every order as it
	// finishes, in order of finishing.
	OnOrder func(OrderResult)
	// NoCriticalPath skips the critical path, which costs a few small
	// records per order while it is live.
	NoCriticalPath bool
}

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
	ID    int64
	Node  int     // where it ran (where it ended, if it migrated)
	Made  float64 // when its parent made it
	Ready float64 // when it could start: made, plus the arguments' transfer when they move at once
	Start float64 // when it began its own work
	End   float64
	// Wait is the time it spent suspended on requests, Transfer the time
	// its arguments delayed it (counted in Start − Made).
	Wait, Transfer float64
}
