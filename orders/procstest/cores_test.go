package procstest

import (
	"fmt"
	"os"
	goruntime "runtime"
	"strconv"
	"testing"

	"github.com/presage-dvm/presage/orders"
)

// threads returns how many threads run Go code in the process it runs in.
var threads = orders.Proc("threads", func(c *orders.Ctx, _ int) (int, error) {
	return goruntime.GOMAXPROCS(0), nil
})

// coresEnv gives the child the cores of its worker processes.
const coresEnv = "PRESAGE_PROCSTEST_CORES"

// Each worker process a coordinator starts runs Go code on as many
// threads as it has cores, unless the user set GOMAXPROCS, which it
// keeps; the coordinator has its own back once the run ends.
func TestWorkersKeepToTheirCores(t *testing.T) {
	Main(func() int {
		cores, _ := strconv.Atoi(os.Getenv(coresEnv))
		before := goruntime.GOMAXPROCS(0)
		got, _, err := orders.Main(orders.Config{Procs: 2, Cores: cores}, threads, 0)
		if err != nil {
			fmt.Fprintln(os.Stderr, "error:", err)
			return 1
		}
		fmt.Printf("worker %d, coordinator %d before and %d after\n", got, before, goruntime.GOMAXPROCS(0))
		return 0
	})
	for _, c := range []struct {
		cores      int
		gomaxprocs string // the environment's
		want       int    // the worker's
	}{{1, "", 1}, {2, "", 2}, {1, "3", 3}} {
		t.Run(fmt.Sprintf("cores=%d,GOMAXPROCS=%q", c.cores, c.gomaxprocs), func(t *testing.T) {
			t.Setenv(coresEnv, strconv.Itoa(c.cores))
			t.Setenv("GOMAXPROCS", c.gomaxprocs)
			r := Start(t, Options{Workers: 2})
			var worker, before, after int
			if _, err := fmt.Sscanf(r.Stdout, "worker %d, coordinator %d before and %d after", &worker, &before, &after); err != nil || r.Err != nil {
				t.Fatalf("exit %v, printed %q (%v), stderr %q", r.Err, r.Stdout, err, r.Stderr)
			}
			if worker != c.want {
				t.Errorf("the worker process ran Go code on %d threads, want %d", worker, c.want)
			}
			if after != before {
				t.Errorf("the coordinator ran on %d threads after the run, %d before", after, before)
			}
		})
	}
}
