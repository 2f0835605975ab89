// Package procstest runs a test's program in worker processes
// (orders.Config.Procs) from a Go test: in a child process of the test
// binary that runs only the calling test, so that the worker processes
// the program starts, copies of that child, go straight to the run
// instead of running the tests before it. It imports orders/cluster, the
// transport of such runs, for the tests that use it.
package procstest

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/presage-dvm/presage/orders"
	_ "github.com/presage-dvm/presage/orders/cluster" // the transport of the runs in worker processes it starts
)

// SumResults gets every handle's result in turn and adds them: the end
// of the test programs that make one order per number and sum what they
// give.
func SumResults(c *orders.Ctx, hs []*orders.Handle[int]) (int, error) {
	total := 0
	for _, h := range hs {
		v, err := h.Get(c)
		if err != nil {
			return 0, err
		}
		total += v
	}
	return total, nil
}

// childEnv marks the child process Run starts: the coordinator, and its
// workers, which are copies of it.
const childEnv = "PRESAGE_PROCSTEST_CHILD"

// Run is what a run in worker processes printed and how it ended.
type Run struct {
	Stdout, Stderr string
	Err            error // the child's exit status, nil for 0
	Workers        []int // the worker processes' pids
	// WorkersLeft is, with KillCoordinator or StopCoordinator, how long
	// after the coordinator was struck its last worker ended.
	WorkersLeft time.Duration
}

// Options are the events Start brings about during the run.
type Options struct {
	Workers int  // the worker processes the program starts
	Kill    bool // kill one worker with SIGKILL once it runs orders
	// KillCoordinator kills the child itself, the coordinator, once
	// every worker runs orders.
	KillCoordinator bool
	// StopCoordinator stops the child with SIGSTOP once every worker
	// runs orders, as a coordinator whose computer died: it answers
	// nothing and closes no connection. Start kills it once its workers
	// have ended, or after 30 s.
	StopCoordinator bool
	// During, when set, is called with the worker processes' pids once
	// every one runs orders, before the events above: the test looks at
	// the run while it goes on.
	During func(workers []int)
}

// Main runs program in the child process Start started (and in its
// workers) and ends that process with program's exit code; in the test
// process itself it returns at once. A test calls it first, then Start.
func Main(program func() int) {
	if os.Getenv(childEnv) != "" {
		os.Exit(program())
	}
}

// Start runs the calling test again in a child process, where Main runs
// the program, waits for its worker processes, brings about opt's
// events, and returns what the child printed once it has ended. A run
// that lasts more than 2 minutes is killed, with its workers, after a
// SIGQUIT that has each print its goroutines to stderr, and
// reported. It fails the test when a worker outlives the child.
func Start(t *testing.T, opt Options) Run {
	t.Helper()
	if runtime.GOOS != "linux" {
		t.Skip("runs in worker processes are tested on Linux (/proc finds the workers)")
	}
	child := Command(t, exec.Command)
	var stdout, stderr bytes.Buffer
	child.Stdout, child.Stderr = &stdout, &stderr
	if err := child.Start(); err != nil {
		t.Fatal(err)
	}
	workers := waitForChildren(t, child.Process.Pid, opt.Workers)
	if len(workers) < opt.Workers && (opt.During != nil || opt.Kill || opt.KillCoordinator || opt.StopCoordinator) {
		child.Wait()
		t.Fatalf("the run ended before its %d worker processes could be watched or struck (seen: %v); stderr %q", opt.Workers, workers, stderr.String())
	}
	if opt.During != nil {
		for _, w := range workers {
			waitForWork(t, w, workers)
		}
		opt.During(workers)
	}
	var struck time.Time // when the coordinator was killed or stopped
	switch {
	case opt.Kill:
		victim := workers[len(workers)-1]
		waitForWork(t, victim, workers)
		if err := syscall.Kill(victim, syscall.SIGKILL); err != nil {
			t.Fatal(err)
		}
	case opt.KillCoordinator:
		for _, w := range workers {
			waitForWork(t, w, workers)
		}
		if err := child.Process.Kill(); err != nil {
			t.Fatal(err)
		}
		struck = time.Now()
	case opt.StopCoordinator:
		for _, w := range workers {
			waitForWork(t, w, workers)
		}
		if err := syscall.Kill(child.Process.Pid, syscall.SIGSTOP); err != nil {
			t.Fatal(err)
		}
		struck = time.Now()
		waitForEnd(workers, 30*time.Second)
		child.Process.Kill()
	}
	hung := time.AfterFunc(2*time.Minute, func() {
		// SIGQUIT first: the Go runtime prints every goroutine's stack
		// to stderr, which the report of the hang then holds. All are
		// stopped, then each quits in turn: they share that stderr, and
		// none sees another end before it has printed. The coordinator
		// goes last: its workers die with it.
		all := append(slices.Clone(workers), child.Process.Pid)
		for _, pid := range all {
			syscall.Kill(pid, syscall.SIGSTOP)
		}
		for _, pid := range all {
			syscall.Kill(pid, syscall.SIGQUIT)
			syscall.Kill(pid, syscall.SIGCONT)
			time.Sleep(time.Second)
		}
		for _, pid := range workers {
			syscall.Kill(pid, syscall.SIGKILL)
		}
		child.Process.Kill()
	})
	err := child.Wait()
	if !hung.Stop() {
		err = fmt.Errorf("killed after 2 minutes: %v", err)
	}
	waitForEnd(workers, 10*time.Second) // a killed coordinator's workers end on their own
	var left time.Duration
	if !struck.IsZero() {
		left = time.Since(struck)
	}
	for _, pid := range workers {
		if alive(pid) {
			t.Errorf("worker process %d outlived its run", pid)
			syscall.Kill(pid, syscall.SIGKILL)
		}
	}
	return Run{Stdout: stdout.String(), Stderr: stderr.String(), Err: err, Workers: workers, WorkersLeft: left}
}

// waitForEnd returns once none of the processes pids runs, or after d.
func waitForEnd(pids []int, d time.Duration) {
	deadline := time.Now().Add(d)
	for _, pid := range pids {
		for alive(pid) && time.Now().Before(deadline) {
			time.Sleep(5 * time.Millisecond)
		}
	}
}

// Command returns the command that runs the calling test again in a
// child process where Main runs the program, for a test that starts its
// processes itself (in other network namespaces, say): wrap makes the
// command from the test binary and its arguments, as exec.Command does.
func Command(t *testing.T, wrap func(name string, args ...string) *exec.Cmd) *exec.Cmd {
	c := wrap(os.Args[0], "-test.run=^"+regexp.QuoteMeta(t.Name())+"$")
	c.Env = append(os.Environ(), childEnv+"=1")
	return c
}

// waitForChildren returns the pids of the n children of process parent,
// once it has them, or those it has when it ends first: a short run may
// start and end its workers between two looks.
func waitForChildren(t *testing.T, parent, n int) []int {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		kids := children(parent)
		if len(kids) >= n || !alive(parent) {
			return kids
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("process %d did not start %d worker processes in 30 s (it has %v)", parent, n, children(parent))
	return nil
}

// waitForWork returns once worker process pid runs orders: every worker
// process of the run (all) has connected to the coordinator (holds a
// socket; the program's own set up before the run, which every process
// does, holds none), and pid has used 0.1 s of CPU since. Counted from
// pid's own connection, a worker killed once it had used its 0.1 s while
// a slower one had yet to connect was killed before the run began (1 run
// in CI's go test ./...), which the coordinator rightly fails on.
func waitForWork(t *testing.T, pid int, all []int) {
	t.Helper()
	const ticks = 10 // of 1/100 s, as /proc counts them on Linux
	deadline := time.Now().Add(30 * time.Second)
	joined := -1 // its CPU time when the last worker connected
	for time.Now().Before(deadline) {
		used, err := cpuTicks(pid)
		if err != nil {
			t.Fatalf("worker %d ended before it ran orders: %v", pid, err)
		}
		switch {
		case joined < 0 && allHaveSockets(all):
			joined = used
		case joined >= 0 && used-joined >= ticks:
			return
		}
		time.Sleep(2 * time.Millisecond)
	}
	t.Fatalf("worker %d did not run orders in 30 s", pid)
}

// cpuTicks returns the CPU time process pid used, in ticks.
func cpuTicks(pid int) (int, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, err
	}
	f := strings.Fields(string(b[bytes.LastIndexByte(b, ')')+1:]))
	// After the comm: state, ppid, ...; utime and stime are fields 14
	// and 15 of the line, 12 and 13 here.
	utime, _ := strconv.Atoi(f[11])
	stime, _ := strconv.Atoi(f[12])
	return utime + stime, nil
}

// allHaveSockets reports whether every process of pids has a socket open.
func allHaveSockets(pids []int) bool {
	for _, pid := range pids {
		if !hasSocket(pid) {
			return false
		}
	}
	return true
}

// hasSocket reports whether process pid has a socket open.
func hasSocket(pid int) bool {
	fds, _ := filepath.Glob(fmt.Sprintf("/proc/%d/fd/*", pid))
	for _, fd := range fds {
		if target, err := os.Readlink(fd); err == nil && strings.HasPrefix(target, "socket:") {
			return true
		}
	}
	return false
}

// children lists the processes whose parent is pid, from /proc.
func children(pid int) []int {
	stats, _ := filepath.Glob("/proc/[0-9]*/stat")
	var kids []int
	for _, path := range stats {
		b, err := os.ReadFile(path)
		if err != nil {
			continue
		}
		// pid (comm) state ppid ...: comm may hold spaces, so read after ')'.
		rest := string(b[bytes.LastIndexByte(b, ')')+1:])
		var state string
		var ppid int
		if _, err := fmt.Sscan(rest, &state, &ppid); err != nil || ppid != pid || state == "Z" {
			continue
		}
		if kid, err := strconv.Atoi(filepath.Base(filepath.Dir(path))); err == nil {
			kids = append(kids, kid)
		}
	}
	return kids
}

// alive reports whether process pid runs (a zombie does not).
func alive(pid int) bool {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	var state string
	fmt.Sscan(string(b[bytes.LastIndexByte(b, ')')+1:]), &state)
	return state != "Z"
}
