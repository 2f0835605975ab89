package ordersim

import (
	"sync"

	"github.com/presage-dvm/presage/sim/internal/chunked"
	"github.com/presage-dvm/presage/sim/internal/requeststore"
)

// Workspace is the memory of a simulation's biggest arenas, which its
// caller keeps to hand to the next simulation (a sweep's, a search's).
// Each simulation of a large trace fills hundreds of MB; taking them
// fresh from the system each time cost a sweep a fifth of its time in the
// kernel, zeroing pages on their first touch (docs/orders-sim.md,
// "Memory"), where touching them again costs nothing.
//
// The zero Workspace is empty and ready. A Workspace serves one
// simulation at a time (Options.Workspace); Sizes keeps one for each
// simulation it runs at once. The values a simulation finds in a used
// Workspace are its predecessor's: only arenas whose users overwrite a
// value whole when they take it (lives, links, the requests' slots) are
// kept in it.
type Workspace struct {
	lives    chunked.Array[live]
	links    chunked.Array[link]
	meta     chunked.Array[linkMeta]
	requests requeststore.Memory
}

// adopt gives e the memory w holds; w holds nothing until e leaves it.
func (e *engine) adopt(w *Workspace) {
	e.lives.Array, e.links.Array, e.links.meta = w.lives, w.links, w.meta
	e.requests.Adopt(w.requests)
	*w = Workspace{}
}

// leave hands e's memory to w for the next simulation; e must not be used
// after.
func (e *engine) leave(w *Workspace) {
	*w = Workspace{lives: e.lives.Array, links: e.links.Array, meta: e.links.meta,
		requests: e.requests.Leave()}
}

// workspaces are the Workspaces of the simulations a Sizes has finished,
// for those it runs next: as many as ran at once.
type workspaces struct {
	mu   sync.Mutex
	free []*Workspace
}

// get returns a finished simulation's Workspace, or an empty one.
func (ws *workspaces) get() *Workspace {
	ws.mu.Lock()
	defer ws.mu.Unlock()
	if n := len(ws.free); n > 0 {
		w := ws.free[n-1]
		ws.free = ws.free[:n-1]
		return w
	}
	return new(Workspace)
}

// put keeps w for a later simulation.
func (ws *workspaces) put(w *Workspace) {
	ws.mu.Lock()
	defer ws.mu.Unlock()
	ws.free = append(ws.free, w)
}
