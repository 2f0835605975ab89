// Package ordertrace defines the order trace of the orders-based
// parallelizing technology (seed 004, stage 3): what every order of a
// recorded run did on its own clock. The runtime (package orders) writes
// it, the store keeps it, the simulator (sim/ordersim) and the work/span
// analysis (sim/workspan) read it. docs/orders.md documents the file
// format (JSON Lines, versioned).
//
// Time is an order's own time: seconds of work of that order alone, from
// 0 at its start to Duration at its end, with no waiting in it. Every
// event of an order (making a child, requesting a result, providing one)
// happens at a moment of that clock.
package ordertrace

import "io"

// Format and Version identify the file format in its header line.
const (
	Format  = "presage-orders"
	Version = 2 // 2: an order's lists may go on in continuation lines
)

// Header is the first line of an order trace.
type Header struct {
	Format  string `json:"format"`  // always Format
	Version int    `json:"version"` // Version of the writer
	Program string `json:"program"` // the recorded program's name
	// Unit is the unit of every time: "s" (seconds on the calibration
	// machine Machine) or "ref" (units of a reference algorithm's time,
	// seed §3, so that a trace carries across machines).
	Unit    string `json:"unit"`
	Machine string `json:"machine,omitempty"` // where the calibration was made
	Orders  int64  `json:"orders,omitempty"`  // number of order lines, when known
	Created string `json:"created,omitempty"` // RFC 3339
	// OrderCost and WaitCost are the runtime's own time per order and
	// per wait that suspends, in Unit, as the calibration timed them
	// (orders.OrderBlock, orders.WaitBlock); the simulator charges them
	// (ordersim.RuntimeCosts). 0 when not timed.
	OrderCost float64 `json:"order_cost,omitempty"`
	WaitCost  float64 `json:"wait_cost,omitempty"`
	// Slowdown[k-1] is how much slower the program's orders run when k
	// run at once on the cores of one machine (memory, caches): its
	// blocks' slowdowns as the calibration timed them, weighed by their
	// share of the work (unmarked code counts as not slowed). Empty
	// when not timed; the simulator keeps the last value beyond it.
	Slowdown []float64 `json:"slowdown,omitempty"`
}

// Order is one line after the header: one order, the smallest unit of
// work, run on one computer. Orders appear in creation order: an order's
// ID is larger than its parent's, and IDs start at 1 (the main order,
// whose Parent is 0).
type Order struct {
	ID       int64   `json:"id"`
	Parent   int64   `json:"parent"`    // the order that made this one; 0 for main
	Proc     string  `json:"proc"`      // the procedure the order runs
	MadeAt   float64 `json:"made_at"`   // moment of the parent's own time when it made this order
	ArgBytes int64   `json:"arg_bytes"` // bytes of the arguments, moved to the executing node
	Duration float64 `json:"duration"`  // own time from start to end (sum of the segments)
	// Segments are the order's work between its events, in own-time
	// order, covering [0, Duration]; Block names the marked block priced
	// by calibration, "" for the order's own unmarked code.
	Segments []Segment `json:"segments,omitempty"`
	Requests []Request `json:"requests,omitempty"` // in own-time order
	Results  []Result  `json:"results,omitempty"`  // in own-time order; at least one
}

// Segment is a stretch of work of an order.
type Segment struct {
	Start float64 `json:"start"` // own time
	Dur   float64 `json:"dur"`
	Block string  `json:"block,omitempty"`
}

// Request is the first request of an order for another order's result:
// the requester waits there unless that result has already reached it.
type Request struct {
	Order  int64   `json:"order"`            // whose result
	Result int     `json:"result,omitempty"` // index into that order's Results
	At     float64 `json:"at"`               // requester's own time
}

// Result is a value an order provides to the orders that request it.
type Result struct {
	At    float64 `json:"at"` // own time
	Bytes int64   `json:"bytes"`
}

// Source yields the orders of a trace in creation order; Next returns
// io.EOF after the last one.
type Source interface {
	Next() (*Order, error)
}

// A Scanner is a Source that can also decode the next order into an
// Order of the caller's, reusing it, for a reader that keeps nothing of
// an order once read: Scan overwrites o and its lists. It returns io.EOF
// after the last order.
type Scanner interface {
	Source
	Scan(o *Order) error
}

// ReadAll reads src to the end and returns its orders.
func ReadAll(src Source) ([]*Order, error) {
	var all []*Order
	for {
		o, err := src.Next()
		if err == io.EOF {
			return all, nil
		}
		if err != nil {
			return all, err
		}
		all = append(all, o)
	}
}
