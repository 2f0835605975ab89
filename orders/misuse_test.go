package orders

import (
	"errors"
	"io"
	goruntime "runtime"
	"strings"
	"testing"
	"time"

	"github.com/presage-dvm/presage/orders/calibration"
)

// errBoom is an error an order panics with.
var errBoom = errors.New("boom")

// TestPanicIsAnError: a panic reaches Main as an *OrderPanic naming the
// order and its procedure, keeping the stack, and unwrapping to the value.
func TestPanicIsAnError(t *testing.T) {
	boom := Proc("boom", func(c *Ctx, x int) int { panic(errBoom) })
	caller := Proc("caller", func(c *Ctx, x int) int { return Make(c, boom, x).Get(c) })
	for _, mode := range []Mode{ModeRun, ModeRecord} {
		_, _, err := Main(Config{Mode: mode, Constants: calibration.Constants{}, Output: io.Discard}, caller, 1)
		var op *OrderPanic
		if !errors.As(err, &op) || !errors.Is(err, errBoom) {
			t.Fatalf("%s: error %v, want an *OrderPanic wrapping errBoom", mode, err)
		}
		if op.Order != 2 || op.Proc != "boom" || !strings.Contains(err.Error(), "order 2 (boom)") {
			t.Errorf("%s: %v names order %d (%s), want order 2 (boom)", mode, err, op.Order, op.Proc)
		}
		if !strings.Contains(string(op.Stack), "misuse_test.go") {
			t.Errorf("%s: the stack does not show where the order panicked:\n%s", mode, op.Stack)
		}
	}
}

// TestMisuse: every wrong use of blocks is an error naming the order, its
// procedure and what it did, in every mode that runs blocks.
func TestMisuse(t *testing.T) {
	leaf := Proc("leaf", func(c *Ctx, x int) int { return x })
	prices := calibration.Constants{"outer": 1, "inner": 1}
	tests := []struct {
		name string
		body func(c *Ctx, x int) int
		want string
	}{
		{"nested block", func(c *Ctx, x int) int {
			c.Block("outer", Cost{F: 1}, func() { c.Block("inner", Cost{F: 1}, func() {}, func() {}) },
				func() { c.Block("inner", Cost{F: 1}, func() {}, func() {}) })
			return x
		}, `block "inner" inside block "outer"`},
		{"make in a block", func(c *Ctx, x int) int {
			c.Block("outer", Cost{F: 1}, func() { Make(c, leaf, x) }, func() { Make(c, leaf, x) })
			return x
		}, `Make of leaf inside block "outer"`},
		{"get in a block", func(c *Ctx, x int) int {
			h := Make(c, leaf, x)
			c.Block("outer", Cost{F: 1}, func() { h.Get(c) }, func() { h.Get(c) })
			return x
		}, `Get of order 2 (leaf) inside block "outer"`},
		{"block not calibrated", func(c *Ctx, x int) int {
			c.Block("unknown", Cost{F: 1}, func() {}, func() {})
			return x
		}, `block "unknown" is not in the calibration`},
	}
	for _, tt := range tests {
		p := Proc("prog", tt.body)
		for _, mode := range []Mode{ModeRun, ModeRecord} {
			if tt.name == "block not calibrated" && mode == ModeRun {
				continue // run mode prices nothing
			}
			_, _, err := Main(Config{Mode: mode, Constants: prices, Output: io.Discard}, p, 1)
			var me *MisuseError
			if !errors.As(err, &me) || me.Order != 1 || me.Proc != "prog" || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("%s, %s: error %v, want a *MisuseError of order 1 (prog) saying %q", tt.name, mode, err, tt.want)
			}
		}
	}
}

// TestDeadlockIsAnError: orders that wait for each other's results (a
// cycle of handles) end Main with a *DeadlockError naming every wait, not
// with Go's fatal "all goroutines are asleep", and leave no goroutine.
func TestDeadlockIsAnError(t *testing.T) {
	before := goruntime.NumGoroutine()
	var ha, hb *Handle[int]
	ready := make(chan struct{})
	a := Proc("a", func(c *Ctx, _ int) int { <-ready; return hb.Get(c) })
	b := Proc("b", func(c *Ctx, _ int) int { <-ready; return ha.Get(c) })
	main := Proc("main", func(c *Ctx, _ int) int {
		ha, hb = Make(c, a, 0), Make(c, b, 0)
		close(ready)
		return ha.Get(c)
	})
	for _, workers := range []int{1, 2, 4} {
		ready = make(chan struct{})
		_, _, err := Main(Config{Workers: workers}, main, 0)
		var d *DeadlockError
		if !errors.As(err, &d) {
			t.Fatalf("%d workers: error %v, want a *DeadlockError", workers, err)
		}
		want := "order 1 (main) waits for order 2 (a), order 2 (a) waits for order 3 (b), order 3 (b) waits for order 2 (a)"
		if !strings.Contains(err.Error(), want) {
			t.Errorf("%d workers: %v\nwant the waits %s", workers, err, want)
		}
	}
	deadline := time.Now().Add(2 * time.Second)
	for goruntime.NumGoroutine() > before && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if n := goruntime.NumGoroutine(); n > before {
		t.Errorf("%d goroutines left after the deadlocks, %d before", n, before)
	}
}

// TestReadyAndCompute: a Ready handle gives its value to whoever gets it,
// travels with the arguments and is requested from no order; Compute
// returns its block's value, the real one in run mode and the quick one
// in record mode.
func TestReadyAndCompute(t *testing.T) {
	square := Proc("square", func(c *Ctx, h *Handle[int]) int {
		x := h.Get(c)
		return Compute(c, "mul", Cost{F: 1}, func() int { return x * x }, func() int { return -1 })
	})
	main := Proc("main", func(c *Ctx, x int) int {
		return Make(c, square, Ready(x)).Get(c) + Ready(1).Get(c)
	})
	got, _, err := Main(Config{Workers: 2}, main, 7)
	if err != nil || got != 50 {
		t.Fatalf("run mode: %d, %v; want 50", got, err)
	}
	rep, trace, _ := recordTrace(t, main, 7, calibration.Constants{"mul": 1})
	if rep.Orders != 2 {
		t.Fatalf("record mode: %d orders, want 2", rep.Orders)
	}
	sq := trace[1]
	if len(sq.Requests) != 0 || sq.ArgBytes != SizeOf(7) {
		t.Errorf("square's order: requests %v, arg_bytes %d; want none and the ready value's %d", sq.Requests, sq.ArgBytes, SizeOf(7))
	}
	if r := trace[0].Requests; len(r) != 1 || r[0].Order != 2 {
		t.Errorf("main's requests %v, want one, of square", r)
	}
}
