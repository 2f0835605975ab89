package ordersim

import (
	"sync"

	"github.com/presage-dvm/presage/sim/chunked"
	"github.com/presage-dvm/presage/sim/requeststore"
)

// memory is the chunks of a finished simulation's biggest arenas, handed
// to the next simulation of the process (a sweep's, a search's). Each
// simulation of a large trace fills hundreds of MB; taking them fresh
// from the system each time cost a sweep a fifth of its time in the
// kernel, zeroing pages on their first touch (docs/orders-sim.md, "Memory"), where
// touching them again costs nothing.
//
// The values a simulation finds in adopted chunks are its predecessor's:
// only arenas whose users overwrite a value whole when they take it
// (lives, links, the requests' slots) adopt them.
type memory struct {
	lives    chunked.Array[live]
	links    chunked.Array[link]
	meta     chunked.Array[linkMeta]
	requests requeststore.Memory
}

var memories sync.Pool // of *memory

// adoptMemory gives e the memory of an earlier simulation, if any is left.
func (e *engine) adoptMemory() {
	m, _ := memories.Get().(*memory)
	if m == nil {
		return
	}
	e.lives.Array, e.links.Array, e.links.meta = m.lives, m.links, m.meta
	e.requests.Adopt(m.requests)
}

// leaveMemory hands e's memory on to the next simulation; e must not be
// used after.
func (e *engine) leaveMemory() {
	memories.Put(&memory{lives: e.lives.Array, links: e.links.Array, meta: e.links.meta,
		requests: e.requests.Leave()})
}
