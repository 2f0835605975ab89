package ordersim

import "github.com/presage-dvm/presage/sim/chunked"

// chunks is the engine's array of T by number: arenas and the arrays
// beside them grow without moving what they hold (package chunked).
type chunks[T any] = chunked.Array[T]
