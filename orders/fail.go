package orders

import (
	"context"
	"fmt"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
)

// OrderPanic is the error Main returns when an order panicked: Get
// re-panics with it in the requesting order, so that it reaches main.
// It names the order that panicked first and keeps its stack; it unwraps
// to the panic value when that is an error (a *MisuseError among them).
type OrderPanic struct {
	Order int64  // the order's id in the run (in record mode, in recording order)
	Proc  string // its procedure
	Value any    // what it panicked with
	Stack []byte // where, as runtime/debug.Stack gives it
}

func (p *OrderPanic) Error() string {
	return fmt.Sprintf("orders: order %d (%s) panicked: %v", p.Order, p.Proc, p.Value)
}

// Unwrap returns the panic value when it is an error.
func (p *OrderPanic) Unwrap() error {
	err, _ := p.Value.(error)
	return err
}

// MisuseError is what an order that used the runtime wrongly panics with:
// a block inside a block, Make or Get inside a block, a block that the
// calibration does not price.
type MisuseError struct {
	Order int64
	Proc  string
	What  string
}

func (e *MisuseError) Error() string {
	return fmt.Sprintf("orders: order %d (%s): %s", e.Order, e.Proc, e.What)
}

// misuse panics with a MisuseError of the order c runs.
func misuse(c *Ctx, format string, args ...any) {
	panic(&MisuseError{Order: c.ord.id, Proc: c.ord.proc, What: fmt.Sprintf(format, args...)})
}

// DeadlockError is what Main returns when every order left waits for
// another's result: the handles form a cycle, and nothing can end.
type DeadlockError struct {
	Waits []Wait // every waiting order, by id
}

// Wait is an order waiting for another's result.
type Wait struct {
	Order, For    int64
	Proc, ForProc string
}

func (e *DeadlockError) Error() string {
	parts := make([]string, len(e.Waits))
	for i, w := range e.Waits {
		parts[i] = fmt.Sprintf("order %d (%s) waits for order %d (%s)", w.Order, w.Proc, w.For, w.ForProc)
	}
	return "orders: deadlock, every order left waits for another: " + strings.Join(parts, ", ")
}

// recovered turns what order o panicked with into the *OrderPanic its
// requesters and Main see; it is called in o's deferred recover, where
// the stack is still the panicking one.
func recovered(o *order, v any) any {
	switch v := v.(type) {
	case nil:
		return nil
	case *OrderPanic, abandoned:
		return v // re-panicked by a Get: the first order's; or unwinding
	}
	return &OrderPanic{Order: o.id, Proc: o.proc, Value: v, Stack: debug.Stack()}
}

// rethrow panics in the requester when the order it requested did.
func rethrow(o *order) {
	if o.err != nil {
		panic(o.err)
	}
}

// halt is what ends a run early: the first panic of any order, which
// Main reports even when nobody requested the order that panicked, and
// the run's context, cancelled by the caller or by that first panic. An
// order that finds the context done at a Make, a Get or a Block unwinds
// (panics with abandoned), so that every order ends soon.
type halt struct {
	ctx    context.Context
	cancel context.CancelFunc
	mu     sync.Mutex
	first  *OrderPanic
}

// abandoned is what an order unwinds with when the run is cancelled: not
// a failure of its own.
type abandoned struct{}

func (h *halt) start(ctx context.Context) {
	h.ctx, h.cancel = context.WithCancel(ctx)
}

// check unwinds the calling order when the run is cancelled.
func (h *halt) check() {
	if h.ctx.Err() != nil {
		panic(abandoned{})
	}
}

func (h *halt) note(v any) {
	p, ok := v.(*OrderPanic)
	if !ok {
		return
	}
	h.mu.Lock()
	if h.first == nil {
		h.first = p
		h.cancel() // the first failure stops the run
	}
	h.mu.Unlock()
}

// err is the run's error: the first failure (a deadlock as itself), else
// the caller's cancel or deadline.
func (h *halt) err(caller context.Context) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.first == nil {
		return caller.Err()
	}
	if d, ok := h.first.Value.(*DeadlockError); ok {
		return d
	}
	return h.first
}

// sortWaits orders waits by the waiting order's id.
func sortWaits(ws []Wait) { slices.SortFunc(ws, func(a, b Wait) int { return int(a.Order - b.Order) }) }
