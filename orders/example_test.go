package orders_test

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/presage-dvm/presage/orders"
	"github.com/presage-dvm/presage/orders/calibration"
	"github.com/presage-dvm/presage/orders/ordersched"
)

// fib computes Fibonacci numbers by orders: each call above 10 makes two
// orders; below, a marked block does the work. Recursive gives the body
// its own procedure: no init function is needed.
var fib = orders.Recursive("fib", func(fib *orders.Procedure1[int, int], c *orders.Ctx, n int) (int, error) {
	if n < 10 {
		return orders.Compute(c, "fib", orders.Cost{Alpha: []float64{float64(n)}, F: float64(int(1) << n)},
			func() int { return slowFib(n) },
			func() int { return 0 }), nil
	}
	a := orders.Make(c, fib, n-1) // made at once
	b := orders.Make(c, fib, n-2)
	x, err := a.Get(c) // waits only if not ready
	if err != nil {
		return 0, err
	}
	y, err := b.Get(c)
	return x + y, err
})

func slowFib(n int) int {
	if n < 2 {
		return n
	}
	return slowFib(n-1) + slowFib(n-2)
}

func ExampleMain() {
	r, rep, err := orders.Main(orders.Config{Workers: 2}, fib, 20)
	if err != nil {
		panic(err)
	}
	fmt.Println(r, rep.Mode, rep.Orders)
	// Output: 6765 run 465
}

// The README's program: run mode on eight workers placing orders by work
// stealing, under a deadline. It links nothing of the network: a run in
// worker processes would need orders/cluster imported.
func ExampleMainContext() {
	cfg := orders.Config{Workers: 8, Scheduler: ordersched.WorkStealing} // or flags: cfg.AddFlags(flag.CommandLine)
	ctx, stop := context.WithTimeout(context.Background(), time.Minute)
	defer stop()
	r, summary, err := orders.MainContext(ctx, cfg, fib, 20)
	if err != nil {
		panic(err)
	}
	fmt.Println(r, summary.Workers, summary.Orders)
	// Output: 6765 8 465
}

// Record mode writes the order trace, blocks priced from constants (here
// given directly rather than read from a calibration file).
func ExampleMain_record() {
	var trace bytes.Buffer
	cfg := orders.Config{Mode: orders.ModeRecord, Machine: "m", Output: &trace,
		Constants: calibration.Constants{"fib": calibration.Flat(1e-9)}}
	_, rep, err := orders.Main(cfg, fib, 12)
	if err != nil {
		panic(err)
	}
	lines := strings.Split(strings.TrimSpace(trace.String()), "\n")
	fmt.Println(rep.Orders, "orders,", len(lines), "lines")
	fmt.Println(lines[0][:60])
	// Output:
	// 9 orders, 10 lines
	// {"format":"presage-orders","version":2,"program":"fib","unit
}

// power raises x to the n by orders of two arguments: each halving is an
// order made with Make2.
var power *orders.Procedure2[float64, int, float64]

func init() {
	power = orders.Proc2("power", func(c *orders.Ctx, x float64, n int) (float64, error) {
		if n == 0 {
			return 1, nil
		}
		half, err := orders.Make2(c, power, x, n/2).Get(c)
		if n%2 == 1 {
			return half * half * x, err
		}
		return half * half, err
	})
}

// A procedure of two arguments is declared with Proc2 and ordered with
// Make2; Run runs any procedure as the main order, called with Call2.
func ExampleProc2() {
	r, _, err := orders.Run(context.Background(), orders.Config{Workers: 2}, orders.Call2(power, 2.0, 10))
	if err != nil {
		panic(err)
	}
	fmt.Println(r)
	// Output: 1024
}
