package orders

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
)

// OrderError is the failure of an order: the error its procedure
// returned, a *PanicError when it panicked, or a *MisuseError when it
// used the runtime wrongly. Get returns it to the
// orders that request the failed order, Main returns the run's first.
type OrderError struct {
	Order int64  // the order's id in the run (in record mode, in recording order)
	Proc  string // its procedure
	Err   error
	// Requesters are, in run mode, the orders that were waiting for it
	// when it failed: the first of its requesters, the first of that
	// one's, and so on; empty when nobody waited for it yet.
	Requesters []OrderRef
}

// OrderRef names an order of the run.
type OrderRef struct {
	Order int64
	Proc  string
}

func (e *OrderError) Error() string {
	var via strings.Builder
	for i, r := range e.Requesters {
		if i == 0 {
			via.WriteString(", requested by")
		} else {
			via.WriteString(" ←")
		}
		fmt.Fprintf(&via, " %d (%s)", r.Order, r.Proc)
	}
	return fmt.Sprintf("orders: order %d (%s)%s: %v", e.Order, e.Proc, via.String(), e.Err)
}

func (e *OrderError) Unwrap() error { return e.Err }

// PanicError is an order's panic as an error: the value, and the stack
// where it was raised. It unwraps to the value when that is an error.
type PanicError struct {
	Value any
	Stack []byte // as runtime/debug.Stack gives it
}

func (p *PanicError) Error() string { return fmt.Sprintf("panic: %v", p.Value) }

// Unwrap returns the panic value when it is an error.
func (p *PanicError) Unwrap() error {
	err, _ := p.Value.(error)
	return err
}

// MisuseError is what an order that used the runtime wrongly panics with:
// a block inside a block, Make or Get inside a block, a block that the
// calibration does not price. The *OrderError around it names the order.
type MisuseError struct{ What string }

func (e *MisuseError) Error() string { return "misuse: " + e.What }

// misuse panics with a MisuseError.
func misuse(format string, args ...any) {
	panic(&MisuseError{What: fmt.Sprintf(format, args...)})
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

// sortWaits orders waits by the waiting order's id.
func sortWaits(ws []Wait) {
	slices.SortFunc(ws, func(a, b Wait) int { return cmp.Compare(a.Order, b.Order) })
}

// abandoned is what an order unwinds with when the run is cancelled: not
// a failure of its own.
type abandoned struct{}

// ended sets what order o ended with, from what its body returned and
// what it panicked with (in o's deferred recover, where the stack is
// still the panicking one): nil, abandoned, or an *OrderError. An error
// that is already an order's failure (from a Get) is passed on as it is.
func ended(o *order, err error, panicked any) {
	switch v := panicked.(type) {
	case nil:
	case abandoned:
		o.err = v
		return
	case *MisuseError: // the runtime's own word, not the program's panic
		o.err = &OrderError{Order: o.id, Proc: o.proc, Err: v}
		return
	default:
		o.err = &OrderError{Order: o.id, Proc: o.proc, Err: &PanicError{Value: v, Stack: debug.Stack()}}
		return
	}
	if err == nil {
		return
	}
	if oe := (*OrderError)(nil); errors.As(err, &oe) {
		o.err = err
		return
	}
	o.err = &OrderError{Order: o.id, Proc: o.proc, Err: err}
}

// failure returns what a requester's Get gets from order o, which has
// ended: nil, or its failure; a run being abandoned unwinds the requester.
func failure(o *order) error {
	switch v := o.err.(type) {
	case nil:
		return nil
	case abandoned:
		panic(v)
	case error:
		return v
	}
	return nil
}

// runState is what every mode's run shares: whether it checks that values
// go by value (Config.Check), and what ends it early: the first failure of
// any order, which Main reports even when nobody requested the order that
// failed, and the run's context, cancelled by the caller or by that first
// failure. An order that finds the context done at a Make, a Get or a
// Block unwinds (panics with abandoned), so that every order ends soon.
type runState struct {
	checkValues bool
	codec       bool // Config.Codec, in record mode
	ctx         context.Context
	cancel      context.CancelFunc
	mu          sync.Mutex
	first       error
}

func (h *runState) start(ctx context.Context, checkValues bool) {
	h.ctx, h.cancel = context.WithCancel(ctx)
	h.checkValues = checkValues
}

// check unwinds the calling order when the run is cancelled.
func (h *runState) check() {
	if h.ctx.Err() != nil {
		panic(abandoned{})
	}
}

// note remembers o's failure if it is the run's first, and cancels the
// run then.
func (h *runState) note(o *order) {
	err, ok := o.err.(error)
	if !ok {
		return
	}
	h.mu.Lock()
	if h.first == nil {
		h.first = err
		h.cancel()
	}
	h.mu.Unlock()
}

// err is the run's error: the first failure (a deadlock as itself), else
// the caller's cancel or deadline.
func (h *runState) err(caller context.Context) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.first == nil {
		return caller.Err()
	}
	if d := (*DeadlockError)(nil); errors.As(h.first, &d) {
		return d
	}
	return h.first
}
