package procstest

import (
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/presage-dvm/presage/orders"
	"github.com/presage-dvm/presage/orders/cluster"
	"github.com/presage-dvm/presage/orders/ordersched"
	"github.com/presage-dvm/presage/sim/machine"
)

// sum adds 0..n-1, each number an order of its own that works for pause.
var sum = orders.Proc("sum", func(c *orders.Ctx, in sumInput) (int, error) {
	hs := make([]*orders.Handle[int], in.N)
	for i := range hs {
		hs[i] = orders.Make(c, term, termInput{I: i, Pause: in.Pause, Fail: in.Fail})
	}
	return SumResults(c, hs)
})

type sumInput struct {
	N     int
	Pause time.Duration
	Fail  int // the term that fails, -1 for none
}

type termInput struct {
	I     int
	Pause time.Duration
	Fail  int
}

// term works for Pause, spinning rather than sleeping: waitForWork knows
// a worker runs orders by the CPU time it takes.
var term = orders.Proc("term", func(c *orders.Ctx, in termInput) (int, error) {
	for start := time.Now(); time.Since(start) < in.Pause; {
	}
	if in.I == in.Fail {
		return 0, errors.New("no such number")
	}
	return in.I, nil
})

// runSum is the program of the tests: it prints the sum, or the error.
func runSum(cfg orders.Config, in sumInput) int {
	got, _, err := orders.Main(cfg, sum, in)
	if err != nil {
		fmt.Fprintln(os.Stderr, "error:", err)
		return 1
	}
	fmt.Println("sum", got)
	return 0
}

func TestFailureEndsTheRun(t *testing.T) {
	// Every term takes long enough for main to wait for the first, which fails.
	Main(func() int {
		return runSum(orders.Config{Procs: 2}, sumInput{N: 3, Pause: 200 * time.Millisecond, Fail: 0})
	})
	r := Start(t, Options{Workers: 2})
	want := "error: orders: order 2 (term), requested by 1 (sum): no such number\n"
	if r.Err == nil || r.Stderr != want {
		t.Errorf("exit %v, stderr %q: want exit 1 and only %q", r.Err, r.Stderr, want)
	}
}

func TestCoordinatorLostTakesItsWorkers(t *testing.T) {
	Main(func() int {
		return runSum(orders.Config{Procs: 2}, sumInput{N: 400, Pause: 20 * time.Millisecond, Fail: -1})
	})
	Start(t, Options{Workers: 2, KillCoordinator: true}) // fails if a worker is left
}

// joinEnv gives the coordinator the address it listens at, and the
// workers this test starts by hand the address they join (…_WORKER).
const joinEnv = "PRESAGE_PROCSTEST_JOIN"

// joined runs the coordinator of runSum in a child (procstest.Start) that
// waits for 2 workers at a free address, starts them by hand, and
// returns the coordinator's run and each worker's stderr and error; with
// killCoordinator, it kills the coordinator once the workers run orders.
func joined(t *testing.T, in sumInput, killCoordinator bool) (Run, []string, []error) {
	addr := freeAddr(t)
	t.Setenv(joinEnv, addr)
	t.Setenv(cluster.TokenEnv, "procstest-token-of-this-run-0123456789abcdef")
	done := make(chan Run, 1)
	go func() { done <- Start(t, Options{}) }()
	var workers []*exec.Cmd
	logs := make([]*strings.Builder, 2)
	for i := range 2 {
		w := Command(t, exec.Command)
		w.Env = append(w.Env, joinEnv+"_WORKER="+addr)
		logs[i] = &strings.Builder{}
		w.Stderr = logs[i]
		if err := w.Start(); err != nil {
			t.Fatal(err)
		}
		workers = append(workers, w)
	}
	if killCoordinator {
		var pids []int
		for _, w := range workers {
			pids = append(pids, w.Process.Pid)
		}
		for _, pid := range pids {
			waitForWork(t, pid, pids)
		}
		coordinator := children(os.Getpid())
		for _, pid := range coordinator {
			if !slices.ContainsFunc(workers, func(w *exec.Cmd) bool { return w.Process.Pid == pid }) {
				syscall.Kill(pid, syscall.SIGKILL)
			}
		}
	}
	r := <-done
	var stderr []string
	var errs []error
	for i, w := range workers {
		errs = append(errs, w.Wait())
		stderr = append(stderr, logs[i].String())
	}
	return r, stderr, errs
}

func TestWorkersJoinAtAnAddress(t *testing.T) {
	Main(func() int {
		cfg := orders.Config{Procs: 2, Listen: os.Getenv(joinEnv), Join: os.Getenv(joinEnv + "_WORKER")}
		return runSum(cfg, sumInput{N: 30, Fail: -1})
	})
	r, logs, errs := joined(t, sumInput{}, false)
	if r.Err != nil || strings.TrimSpace(r.Stdout) != "sum 435" {
		t.Errorf("coordinator: %v, printed %q, stderr %q", r.Err, r.Stdout, r.Stderr)
	}
	// The token is given (joined sets it): it is not printed.
	if want := "orders: coordinator listening on " + os.Getenv(joinEnv) + " for 2 workers (token required, TLS off)\n"; r.Stderr != want {
		t.Errorf("coordinator's log %q; want only %q", r.Stderr, want)
	}
	for i, err := range errs {
		if err != nil {
			t.Errorf("worker %d: %v: %s", i, err, logs[i])
		}
	}
}

func TestCoordinatorLostEndsJoinedWorkersWithAnError(t *testing.T) {
	Main(func() int {
		cfg := orders.Config{Procs: 2, Listen: os.Getenv(joinEnv), Join: os.Getenv(joinEnv + "_WORKER")}
		return runSum(cfg, sumInput{N: 400, Pause: 20 * time.Millisecond, Fail: -1})
	})
	_, logs, errs := joined(t, sumInput{}, true)
	for i, err := range errs {
		if err == nil || !strings.Contains(logs[i], "lost the coordinator at nats://") {
			t.Errorf("worker %d after its coordinator was killed: %v, stderr %q: want exit 1 and the coordinator lost", i, err, logs[i])
		}
	}
}

// freeAddr returns a loopback address with a port free now.
func freeAddr(t *testing.T) string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return "127.0.0.1:" + strconv.Itoa(l.Addr().(*net.TCPAddr).Port)
}

// TestNetworkModeTimesTheWorkers calibrates the network of one worker
// (round trips with the coordinator) and of two (round trips between the
// workers, one at a time and in streams), and the runtime's own costs on
// them.
func TestNetworkModeTimesTheWorkers(t *testing.T) {
	Main(func() int {
		procs, _ := strconv.Atoi(os.Getenv(joinEnv + "_PROCS"))
		_, rep, err := orders.Main(orders.Config{Mode: orders.ModeNetwork, Procs: procs, Out: os.Getenv(joinEnv + "_OUT")}, sum, sumInput{})
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		fmt.Printf("%d %g %g\n", rep.Network.Nodes, rep.Network.Latency, rep.Network.Bandwidth)
		return 0
	})
	for _, procs := range []int{1, 2} {
		t.Run(strconv.Itoa(procs), func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "cluster.json")
			t.Setenv(joinEnv+"_OUT", out)
			t.Setenv(joinEnv+"_PROCS", strconv.Itoa(procs))
			r := Start(t, Options{Workers: procs})
			var workers int
			var latency, bandwidth float64
			if _, err := fmt.Sscan(r.Stdout, &workers, &latency, &bandwidth); err != nil || r.Err != nil {
				t.Fatalf("%v %v: stdout %q, stderr %q", err, r.Err, r.Stdout, r.Stderr)
			}
			if workers != procs || !(latency > 0 && latency < 0.1) || !(bandwidth > 1e6) {
				t.Errorf("%d workers, latency %g s, bandwidth %g B/s: want %d, a loopback's", workers, latency, bandwidth, procs)
			}
			cl, err := machine.ReadClusterFile(out)
			if err != nil || cl.Nodes != procs || cl.Cores != 1 || len(cl.Messages) < 2 || cl.Latency != latency {
				t.Errorf("%s: %v, %+v: want the cluster of %d one-core workers, its message times and its line", out, err, cl, procs)
			}
			// Two workers: streams of transfers between them say the share
			// of a transfer that holds the coordinator's server, at every
			// size, at most the transfer; one worker has nobody to stream
			// with.
			if procs > 1 && len(cl.Relay) != len(cl.Messages) || procs == 1 && cl.Relay != nil {
				t.Errorf("%s: %d relay times for %d message times, %d workers", out, len(cl.Relay), len(cl.Messages), procs)
			}
			for i, p := range cl.Relay {
				if m := cl.Messages[i]; p.Bytes != m.Bytes || !(p.Seconds > 0 && p.Seconds <= m.Seconds) {
					t.Errorf("%s: relay %+v for the message %+v: want the same size, more than nothing and at most its time", out, p, m)
				}
			}
			// The runtime's own cost there: far more than the
			// microsecond of one process (messages, several processes'
			// schedulers), far less than the run.
			if !(cl.OrderCost > 5e-6 && cl.OrderCost < 0.05) || !(cl.WaitCost > 0 && cl.WaitCost < 0.05) {
				t.Errorf("%s: the runtime %g s per order, %g s per wait: want each between a microsecond's and 50 ms", out, cl.OrderCost, cl.WaitCost)
			}
		})
	}
}

// The program of TestLostResultsAreMadeAgain: main makes mid, which makes
// leaf and returns leaf's handle; main then makes die, which kills its
// worker process the first time it runs (the file dieEnv names does not
// exist yet), and requests leaf's result through the handle. Main keeps
// its core until leaf has run (leaf leaves a file beside die's). Leaf's
// arguments and result are larger than ordersched.InlineBytes, so that
// they stay on the nodes.
var (
	leaf = orders.Proc("leaf", func(c *orders.Ctx, in leafInput) ([]int, error) {
		if in.Ran != "" {
			if err := os.WriteFile(in.Ran, nil, 0o600); err != nil {
				return nil, err
			}
		}
		out := make([]int, 4096) // encoded, 4 bytes or more each
		for i := range out {
			out[i] = 10*in.V + i<<20
		}
		return out, nil
	})
	mid = orders.Proc("mid", func(c *orders.Ctx, in leafInput) (*orders.Handle[[]int], error) {
		h := orders.Make(c, leaf, in)
		_, err := h.Get(c) // mid ends after leaf: leaf's result and arguments are on mid's node only
		return h, err
	})
	die = orders.Proc("die", func(c *orders.Ctx, marker string) (int, error) {
		if f, err := os.OpenFile(marker, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600); err == nil {
			f.Close()
			syscall.Kill(os.Getpid(), syscall.SIGKILL)
			time.Sleep(time.Minute)
		}
		return 1, nil
	})
	lostResult = orders.Proc("lostResult", func(c *orders.Ctx, marker string) (int, error) {
		ran := marker + ".leaf"
		hm := orders.Make(c, mid, leafInput{V: 4, Ran: ran, Pad: make([]byte, 2*ordersched.InlineBytes)})
		for deadline := time.Now().Add(30 * time.Second); ; {
			if _, err := os.Stat(ran); err == nil {
				break
			}
			if time.Now().After(deadline) {
				return 0, errors.New("leaf did not run in 30 s")
			}
		}
		h, err := hm.Get(c)
		if err != nil {
			return 0, err
		}
		d, err := orders.Make(c, die, marker).Get(c)
		if err != nil {
			return 0, err
		}
		v, err := h.Get(c)
		if err != nil {
			return 0, err
		}
		return v[0] + d, nil
	})
)

// leafInput is leaf's value, the file it leaves once it ran, and bytes
// that make its arguments large.
type leafInput struct {
	V   int
	Ran string
	Pad []byte
}

const dieEnv = "PRESAGE_PROCSTEST_DIE"

// TestLostResultsAreMadeAgain: on 2 worker processes of one core, main
// runs on worker 0, mid and leaf on worker 1 (main holds worker 0's
// core), and leaf's result and arguments stay on worker 1 (mid, its
// maker, runs there). die then kills worker 1: leaf's result is lost,
// and so are its arguments, and mid has ended. When main requests leaf's
// result, the coordinator has leaf made again, which needs mid made
// again first (it holds leaf's arguments); both run on worker 0, and the
// run ends with the right sum.
func TestLostResultsAreMadeAgain(t *testing.T) {
	Main(func() int {
		got, _, err := orders.Main(orders.Config{Procs: 2}, lostResult, os.Getenv(dieEnv))
		if err != nil {
			fmt.Fprintln(os.Stderr, "error:", err)
			return 1
		}
		fmt.Println("result", got)
		return 0
	})
	t.Setenv(dieEnv, filepath.Join(t.TempDir(), "died"))
	r := Start(t, Options{Workers: 2})
	if r.Err != nil || strings.TrimSpace(r.Stdout) != "result 41" {
		t.Fatalf("exit %v, stdout %q, stderr %q: want result 41", r.Err, r.Stdout, r.Stderr)
	}
	if !strings.Contains(r.Stderr, "orders: lost worker 1 ") || !strings.Contains(r.Stderr, "orders: 2 ended orders made again") {
		t.Errorf("stderr %q: want worker 1 lost, and leaf and mid made again", r.Stderr)
	}
}
