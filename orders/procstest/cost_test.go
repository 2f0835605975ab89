package procstest

import (
	"fmt"
	"os"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/presage-dvm/presage/orders"
)

// costEnv gives the child of TestFineOrderCost its orders and where they
// run ("procs", "procs-2": with 2 orders started ahead throughout rather
// than the default's growing number, "procs-none": with none, or
// "local").
const costEnv = "PRESAGE_PROCSTEST_COST"

// cpuOf returns the user and system CPU time of who: syscall.RUSAGE_SELF,
// or RUSAGE_CHILDREN, the processes this one waited for.
func cpuOf(who int) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(who, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// fineCost is what one run of TestFineOrderCost's program took: its
// makespan, and the CPU time of the coordinator (the whole process,
// its NATS server included) and of its workers.
type fineCost struct{ wall, coordinator, workers time.Duration }

// fineRun runs n orders of 20 µs, made by main, in a child process,
// where: on 2 worker processes of one core ("procs"; "procs-none" with no
// order started ahead, Config.Ahead), or on 2 workers in this process
// ("local").
func fineRun(t *testing.T, n int, where string) fineCost {
	t.Setenv(costEnv, fmt.Sprintf("%d %s", n, where))
	r := Start(t, Options{Workers: map[bool]int{false: 2, true: 0}[where == "local"]})
	var c fineCost
	if _, err := fmt.Sscan(r.Stdout, &c.wall, &c.coordinator, &c.workers); err != nil || r.Err != nil {
		t.Fatalf("%v %v: stdout %q, stderr %q", err, r.Err, r.Stdout, r.Stderr)
	}
	return c
}

// TestFineOrderCost measures what an order of 20 µs costs on 2 worker
// processes (by default, with 2 orders started ahead throughout, with
// none), against 2 workers in one process: the makespan per order,
// and the CPU time per order of the coordinator and of the workers, as
// the difference between a run of 2,000 orders and one of 200 (which
// leaves out what every run pays once: starting the processes). It
// fails when an order costs more than 5 ms of makespan, 250 times its
// work (about 0.7 ms on 2 cores loaded 5 times over): a message that
// waits for a timer, or a batch that waits for the next.
func TestFineOrderCost(t *testing.T) {
	if testing.Short() {
		t.Skip("runs worker processes 7 times")
	}
	Main(func() int {
		var n int
		var where string
		fmt.Sscan(os.Getenv(costEnv), &n, &where)
		cfg := orders.Config{Procs: 2}
		switch where {
		case "local":
			cfg = orders.Config{Workers: 2}
		case "procs-2":
			cfg.Ahead = 2
		case "procs-none":
			cfg.Ahead = -1
		}
		_, rep, err := orders.Main(cfg, sum, sumInput{N: n, Pause: 20 * time.Microsecond, Fail: -1})
		if err != nil {
			fmt.Fprintln(os.Stderr, "error:", err)
			return 1
		}
		fmt.Println(int64(rep.Elapsed), int64(cpuOf(syscall.RUSAGE_SELF)), int64(cpuOf(syscall.RUSAGE_CHILDREN)))
		return 0
	})
	const many, few = 2000, 200
	big, small, local := fineRun(t, many, "procs"), fineRun(t, few, "procs"), fineRun(t, many, "local")
	bigTwo, smallTwo := fineRun(t, many, "procs-2"), fineRun(t, few, "procs-2")
	bigNone, smallNone := fineRun(t, many, "procs-none"), fineRun(t, few, "procs-none")
	per := func(a, b time.Duration) float64 { return float64(a-b) / 1e3 / (many - few) }
	wall := per(big.wall, small.wall)
	t.Logf("an order of 20 µs on 2 worker processes: %.1f µs of makespan (in one process on 2 workers: %.1f µs; with 2 orders started ahead throughout: %.1f µs; with none: %.1f µs), CPU %.1f µs in the coordinator, %.1f µs in the workers",
		wall, float64(local.wall)/1e3/many, per(bigTwo.wall, smallTwo.wall), per(bigNone.wall, smallNone.wall), per(big.coordinator, small.coordinator), per(big.workers, small.workers))
	if wall > 5000 {
		t.Errorf("an order costs %s µs of makespan on 2 worker processes, want at most 5,000", strconv.FormatFloat(wall, 'f', 1, 64))
	}
}
