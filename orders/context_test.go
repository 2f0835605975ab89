package orders

import (
	"context"
	"errors"
	"io"
	goruntime "runtime"
	"testing"
	"time"

	"github.com/presage-dvm/presage/orders/calibration"
)

// sleepy waits d, in short naps that watch the run's context, as an order
// doing long work should.
func sleepy(c *Ctx, d time.Duration) {
	for end := time.Now().Add(d); time.Now().Before(end); {
		if c.Context().Err() != nil {
			return
		}
		time.Sleep(2 * time.Millisecond)
	}
}

// noLeak waits until the goroutines are back to before, and fails if they
// are not within two seconds.
func noLeak(t *testing.T, before int) {
	t.Helper()
	deadline := time.Now().Add(2 * time.Second)
	for goruntime.NumGoroutine() > before && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	if n := goruntime.NumGoroutine(); n > before {
		buf := make([]byte, 1<<16)
		t.Errorf("%d goroutines left, %d before:\n%s", n, before, buf[:goruntime.Stack(buf, true)])
	}
}

// TestContextStopsMain: the caller's cancel and deadline end Main at once
// with the context's error, in every mode, whatever the orders are doing:
// running, waiting for a result, or queued for a worker.
func TestContextStopsMain(t *testing.T) {
	forever := Proc("forever", func(c *Ctx, _ int) (int, error) { sleepy(c, time.Hour); return 0, nil })
	var waiter *Procedure1[int, int]
	waiter = Proc("waiter", func(c *Ctx, n int) (int, error) {
		if n == 0 {
			return Make(c, forever, 0).Get(c)
		}
		x, y, err := both(c, Make(c, waiter, n-1), Make(c, waiter, n-1))
		return x + y, err
	})
	endless := Proc("endless", func(c *Ctx, _ int) (int, error) {
		for {
			Make(c, forever, 0) // each a Make: the runtime checks the context
		}
	})
	before := goruntime.NumGoroutine()
	for _, tc := range []struct {
		mode Mode
		p    *Procedure1[int, int]
		arg  int
	}{{ModeRun, waiter, 4}, {ModeRun, endless, 0}, {ModeRecord, endless, 0}} {
		for _, deadline := range []bool{false, true} {
			ctx, cancel := context.WithCancel(context.Background())
			want := context.Canceled
			if deadline {
				ctx, cancel = context.WithTimeout(context.Background(), 30*time.Millisecond)
				want = context.DeadlineExceeded
			} else {
				time.AfterFunc(30*time.Millisecond, cancel)
			}
			start := time.Now()
			cfg := Config{Mode: tc.mode, Workers: 2, Constants: calibration.Constants{}, Output: io.Discard}
			_, _, err := MainContext(ctx, cfg, tc.p, tc.arg)
			cancel()
			if !errors.Is(err, want) {
				t.Errorf("%s %s: error %v, want %v", tc.mode, tc.p.name, err, want)
			}
			if took := time.Since(start); took > time.Second {
				t.Errorf("%s %s: Main took %v after its context ended", tc.mode, tc.p.name, took)
			}
		}
	}
	noLeak(t, before)
}

// TestFailureStopsTheRun: the first order that fails ends Main at once with
// its error, without waiting for unrelated orders, which see the run's
// context done.
func TestFailureStopsTheRun(t *testing.T) {
	slow := Proc("slow", func(c *Ctx, _ int) (int, error) { sleepy(c, 3*time.Second); return 1, nil })
	boom := Proc("boom", func(c *Ctx, _ int) (int, error) { return 0, errBoom })
	main := Proc("main", func(c *Ctx, _ int) (int, error) {
		s := Make(c, slow, 0)
		Make(c, boom, 0) // never requested
		return s.Get(c)
	})
	before := goruntime.NumGoroutine()
	start := time.Now()
	_, _, err := Main(Config{Workers: 2}, main, 0)
	if !errors.Is(err, errBoom) {
		t.Fatalf("error %v, want boom's", err)
	}
	if took := time.Since(start); took > time.Second {
		t.Errorf("Main took %v: it waited for the slow order", took)
	}
	noLeak(t, before)
}
