// Package ordertrace reads and writes order traces of the orders-based
// parallelizing technology (seed 004, stage 3) with their checks: the
// format itself, its types and the one encoder and decoder of its lines,
// are orders/tracefile's, which the runtime (package orders) writes with.
// This package owns the checked Reader and Writer (the rules of
// docs/orders.md), the packed form the store keeps (Packer, Unpacker,
// ChunkSource) and the counts an analysis needs ahead; the store keeps
// traces, the simulator (sim/ordersim) and the work/span analysis
// (sim/workspan) read them.
package ordertrace

import (
	"io"

	"github.com/presage-dvm/presage/orders/tracefile"
)

// The format (orders/tracefile): this package reads and writes it with
// the checks of docs/orders.md.
const (
	Format  = tracefile.Format
	Version = tracefile.Version
)

// Header is the first line of an order trace.
type Header = tracefile.Header

// Order is one order of a trace (tracefile.Order).
type Order = tracefile.Order

// Segment is a stretch of work of an order.
type Segment = tracefile.Segment

// Request is the first request of an order for another order's result.
type Request = tracefile.Request

// Result is a value an order provides to the orders that request it.
type Result = tracefile.Result

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
