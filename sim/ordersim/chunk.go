package ordersim

import "github.com/presage-dvm/presage/sim/chunked"

// The engine's arrays, arenas and stacks of numbers grow by chunks that
// never move (package chunked): chunks for the arrays beside the arenas,
// arena for the orders, links and lists it hands out by number, stack
// for the numbers of freed runs of request slots.
type (
	chunks[T any] = chunked.Array[T]
	arena[T any]  = chunked.Arena[T]
	stack         = chunked.Stack
)
