package programstest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/presage-dvm/presage/orders/measured"
	"github.com/presage-dvm/presage/orders/procstest"
)

// Procs runs the named program's command with -orders.procs 3 on a
// problem of the given size (procstest), and checks that it printed OK
// and measured the run as one in a single process is (-orders.out):
// every order, each core of the 3 workers. With kill, one worker is
// killed with SIGKILL while the run is under way: the coordinator must
// say it lost it and still get the right answer.
func Procs(t *testing.T, name string, cmd Command, size string, kill bool) {
	const out = "PRESAGE_PROGRAMSTEST_OUT"
	procstest.Main(func() int {
		return cmd([]string{"-n", size, "-orders.procs", "3", "-orders.out", os.Getenv(out)}, os.Stdout, os.Stderr)
	})
	file := filepath.Join(t.TempDir(), "run.jsonl")
	t.Setenv(out, file)
	r := procstest.Start(t, procstest.Options{Workers: 3, Kill: kill})
	if r.Err != nil || !strings.HasPrefix(r.Stdout, "OK "+name) {
		t.Fatalf("%s n=%s on 3 worker processes: %v\nstdout: %s\nstderr: %s", name, size, r.Err, r.Stdout, r.Stderr)
	}
	run := readFile(t, file, measured.Read)
	if len(run.Workers) != 3 || int64(len(run.Schedule)) != run.Orders || run.Orders < 2 || run.Makespan <= 0 {
		t.Errorf("measured: %d workers, %d of %d orders scheduled, makespan %g; want 3 workers and every order", len(run.Workers), len(run.Schedule), run.Orders, run.Makespan)
	}
	lost := strings.Contains(r.Stderr, "orders: lost worker")
	if lost != kill {
		t.Errorf("%s with a worker killed %v: the coordinator's log says lost %v:\n%s", name, kill, lost, r.Stderr)
	}
	if lost {
		t.Log(strings.TrimSpace(r.Stderr))
	}
}
