package orders

import (
	"context"
	"errors"
	"fmt"
	"io"
	goruntime "runtime"
	"strings"
	"testing"
	"time"

	"github.com/presage-dvm/presage/orders/calibration"
)

// errBoom is an error an order fails with.
var errBoom = errors.New("boom")

// TestErrorsReachMain: an error a procedure returns, or its panic, ends
// Main with an *OrderError naming the order and its procedure; Get
// returns it to the requester; a panic keeps its stack and value.
func TestErrorsReachMain(t *testing.T) {
	fails := Proc("fails", func(c *Ctx, x int) (int, error) { return 0, errBoom })
	panics := Proc("panics", func(c *Ctx, x int) (int, error) { panic(errBoom) })
	for _, mode := range []Mode{ModeRun, ModeRecord} {
		for _, p := range []*Procedure1[int, int]{fails, panics} {
			got := make(chan error, 1) // what the requester's Get returned: Main may return first
			caller := Proc("caller", func(c *Ctx, x int) (int, error) {
				v, err := Make(c, p, x).Get(c)
				got <- err
				return v, err
			})
			_, _, err := Main(Config{Mode: mode, Workers: 2, Constants: calibration.Constants{}, Output: io.Discard}, caller, 1)
			var oe *OrderError
			if !errors.As(err, &oe) || !errors.Is(err, errBoom) || oe.Order != 2 || oe.Proc != p.name {
				t.Fatalf("%s, %s: error %v, want order 2 (%s)'s failure wrapping errBoom", mode, p.name, err, p.name)
			}
			select {
			case err := <-got:
				if !errors.Is(err, errBoom) {
					t.Errorf("%s, %s: the requester's Get returned %v", mode, p.name, err)
				}
			case <-time.After(2 * time.Second):
				t.Errorf("%s, %s: the requester's Get did not return", mode, p.name)
			}
			var pe *PanicError
			if panicked := errors.As(err, &pe); panicked != (p == panics) {
				t.Errorf("%s, %s: error %v is a panic: %v", mode, p.name, err, panicked)
			} else if panicked && !strings.Contains(string(pe.Stack), "misuse_test.go") {
				t.Errorf("%s: the stack does not show where the order panicked:\n%s", mode, pe.Stack)
			}
		}
	}
}

// TestRequestersChain: in run mode, a failure names the orders that were
// waiting for it, each the first requester of the one before.
func TestRequestersChain(t *testing.T) {
	leaf := Proc("leaf", func(c *Ctx, x int) (int, error) {
		time.Sleep(50 * time.Millisecond) // the others reach their Get
		return 0, errBoom
	})
	mid := Proc("mid", func(c *Ctx, x int) (int, error) { return Make(c, leaf, x).Get(c) })
	top := Proc("top", func(c *Ctx, x int) (int, error) { return Make(c, mid, x).Get(c) })
	_, _, err := Main(Config{Workers: 2}, top, 1)
	var oe *OrderError
	if !errors.As(err, &oe) || oe.Order != 3 {
		t.Fatalf("error %v, want order 3's failure", err)
	}
	want := []OrderRef{{2, "mid"}, {1, "top"}}
	if fmt.Sprint(oe.Requesters) != fmt.Sprint(want) || !strings.Contains(err.Error(), "order 3 (leaf), requested by 2 (mid) ← 1 (top): boom") {
		t.Errorf("requesters %v (%v), want %v", oe.Requesters, err, want)
	}
}

// TestMisuse: every wrong use of blocks is an error naming the order, its
// procedure and what it did, in every mode that runs blocks.
func TestMisuse(t *testing.T) {
	leaf := Proc("leaf", func(c *Ctx, x int) (int, error) { return x, nil })
	prices := calibration.Constants{"outer": calibration.Flat(1), "inner": calibration.Flat(1)}
	tests := []struct {
		name string
		body func(c *Ctx, x int) (int, error)
		want string
	}{
		{"nested block", func(c *Ctx, x int) (int, error) {
			c.Block("outer", Cost{F: 1}, func() { c.Block("inner", Cost{F: 1}, func() {}, func() {}) },
				func() { c.Block("inner", Cost{F: 1}, func() {}, func() {}) })
			return x, nil
		}, `block "inner" inside block "outer"`},
		{"make in a block", func(c *Ctx, x int) (int, error) {
			c.Block("outer", Cost{F: 1}, func() { Make(c, leaf, x) }, func() { Make(c, leaf, x) })
			return x, nil
		}, `Make of leaf inside block "outer"`},
		{"get in a block", func(c *Ctx, x int) (int, error) {
			h := Make(c, leaf, x)
			c.Block("outer", Cost{F: 1}, func() { h.Get(c) }, func() { h.Get(c) })
			return x, nil
		}, `Get of order 2 (leaf) inside block "outer"`},
		{"block not calibrated", func(c *Ctx, x int) (int, error) {
			c.Block("unknown", Cost{F: 1}, func() {}, func() {})
			return x, nil
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
			if !errors.As(err, &me) || !strings.Contains(err.Error(), "order 1 (prog)") || !strings.Contains(err.Error(), tt.want) {
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
	var ready chan struct{}
	a := Proc("a", func(c *Ctx, _ int) (int, error) { <-ready; return hb.Get(c) })
	b := Proc("b", func(c *Ctx, _ int) (int, error) { <-ready; return ha.Get(c) })
	main := Proc("main", func(c *Ctx, _ int) (int, error) {
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
	noLeak(t, before)
}

// TestReadyAndCompute: a Ready handle gives its value to whoever gets it,
// travels with the arguments and is requested from no order; Compute
// returns its block's value, the real one in run mode and the quick one
// in record mode.
func TestReadyAndCompute(t *testing.T) {
	square := Proc("square", func(c *Ctx, h *Handle[int]) (int, error) {
		x, err := h.Get(c)
		return Compute(c, "mul", Cost{F: 1}, func() int { return x * x }, func() int { return -1 }), err
	})
	main := Proc("main", func(c *Ctx, x int) (int, error) {
		sq, err := Make(c, square, Ready(x)).Get(c)
		one, _ := Ready(1).Get(c)
		return sq + one, err
	})
	got, _, err := Main(Config{Workers: 2}, main, 7)
	if err != nil || got != 50 {
		t.Fatalf("run mode: %d, %v; want 50", got, err)
	}
	rep, trace, _ := recordTrace(t, main, 7, calibration.Constants{"mul": calibration.Flat(1)})
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

// TestCheckFindsSharedMemory: in checking mode, an order that writes its
// arguments (memory its maker shares) or a requester that writes a result
// (memory every requester shares) fails with a *MisuseError naming the
// order; a program that copies passes, and without checking nothing is
// looked at.
func TestCheckFindsSharedMemory(t *testing.T) {
	inPlace := Proc("inplace", func(c *Ctx, xs []float64) ([]float64, error) {
		xs[0] = -1 // the maker's memory
		return xs, nil
	})
	copying := Proc("copying", func(c *Ctx, xs []float64) ([]float64, error) {
		out := append([]float64(nil), xs...)
		out[0] = -1
		return out, nil
	})
	tests := []struct {
		name string
		main func(c *Ctx, n int) (float64, error)
		want string // "" when the program is right
	}{
		{"an order writes its argument", func(c *Ctx, n int) (float64, error) {
			r, err := Make(c, inPlace, make([]float64, n)).Get(c)
			return r[0], err
		}, "order 2 (inplace)"}, // requested by main when it failed, or not yet
		{"a requester writes a result", func(c *Ctx, n int) (float64, error) {
			h := Make(c, copying, make([]float64, n))
			r, err := h.Get(c)
			if err != nil {
				return 0, err
			}
			r[1] = 5 // the result every requester shares
			_, err = h.Get(c)
			return r[0], err
		}, "the result of order 2 (copying) changed after it ended"},
		{"copies", func(c *Ctx, n int) (float64, error) {
			r, err := Make(c, copying, make([]float64, n)).Get(c)
			return r[0], err
		}, ""},
	}
	for _, tt := range tests {
		p := Proc("main", tt.main)
		for _, mode := range []Mode{ModeRun, ModeRecord} {
			cfg := Config{Mode: mode, Workers: 2, Check: true, Constants: calibration.Constants{}, Output: io.Discard}
			_, _, err := Main(cfg, p, 4)
			var me *MisuseError
			if tt.want == "" && err != nil || tt.want != "" && (!errors.As(err, &me) || !strings.Contains(err.Error(), tt.want)) {
				t.Errorf("%s, %s: error %v, want %q", tt.name, mode, err, tt.want)
			}
			cfg.Check = false
			if _, _, err := Main(cfg, p, 4); err != nil {
				t.Errorf("%s, %s, not checking: %v", tt.name, mode, err)
			}
		}
	}
}

// TestRunAnyProcedure: Run takes a procedure of one, two or three
// arguments as the main order, and a Recursive procedure needs no init.
func TestRunAnyProcedure(t *testing.T) {
	fact := Recursive("fact", func(fact *Procedure1[int, int], c *Ctx, n int) (int, error) {
		if n <= 1 {
			return 1, nil
		}
		r, err := Make(c, fact, n-1).Get(c)
		return n * r, err
	})
	sum3 := Proc3("sum3", func(c *Ctx, a, b int, h *Handle[int]) (int, error) {
		x, err := h.Get(c)
		return a + b + x, err
	})
	ctx := context.Background()
	for _, mode := range []Mode{ModeRun, ModeRecord} {
		cfg := Config{Mode: mode, Workers: 2, Constants: calibration.Constants{}, Output: io.Discard}
		if got, _, err := Run(ctx, cfg, Call(fact, 5)); err != nil || (mode == ModeRun && got != 120) {
			t.Errorf("%s: fact(5) = %d, %v", mode, got, err)
		}
		if got, _, err := Run(ctx, cfg, Call3(sum3, 1, 2, Ready(3))); err != nil || (mode == ModeRun && got != 6) {
			t.Errorf("%s: sum3 = %d, %v", mode, got, err)
		}
	}
}
