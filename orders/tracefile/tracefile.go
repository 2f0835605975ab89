// Package tracefile is the order trace's file format (docs/orders.md,
// "Order traces"): what every order of a recorded run did on its own
// clock, as JSON Lines, and the one encoder and the one decoder of its
// lines. The runtime (package orders, record mode) writes its traces with
// it; sim/ordertrace builds on it the checked Reader and Writer, the
// packed form the store keeps, and the other ways the simulator and the
// analyses read a trace. It imports only the standard library, so that a
// program linking the runtime links nothing of the simulator.
//
// Time is an order's own time: seconds of work of that order alone, from
// 0 at its start to Duration at its end, with no waiting in it. Every
// event of an order (making a child, requesting a result, providing one)
// happens at a moment of that clock.
package tracefile

import (
	"encoding/json"
	"fmt"
)

// Format and Version identify the file format in its header line.
const (
	Format  = "presage-orders"
	Version = 2 // 2: an order's lists may go on in continuation lines
)

// LineItems bounds the items of each list on one line as the writers
// write them: an order with more segments, requests or results goes on
// in continuation lines (docs/orders.md), so that no line is longer than
// a few megabytes. A reader takes lines of any length.
const LineItems = 1 << 15

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

// AppendHeader appends h's line and its newline, with Format and Version
// set to this package's and an empty Unit meaning "s"; it is for writers
// of order lines that do not go through a Writer (AppendOrderLines,
// WriteOrder).
func AppendHeader(b []byte, h Header) ([]byte, error) {
	h.Format, h.Version = Format, Version
	if h.Unit == "" {
		h.Unit = "s"
	}
	if h.Unit != "s" && h.Unit != "ref" {
		return b, fmt.Errorf("order trace header: unit %q (expected \"s\" or \"ref\")", h.Unit)
	}
	line, err := json.Marshal(h)
	if err != nil {
		return b, err
	}
	return append(append(b, line...), '\n'), nil
}
