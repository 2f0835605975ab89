package cluster

import (
	"runtime"
	"testing"
)

func TestCoordinatorShare(t *testing.T) {
	for _, c := range []struct{ cpus, procs, cores, current, want int }{
		{2, 2, 1, 2, 1},    // the workers take every core: one left to it anyway
		{2, 1, 1, 2, 1},    // one core left
		{8, 2, 2, 8, 4},    // four left
		{8, 2, 1, 4, 4},    // six left, but it had four
		{4, 8, 1, 4, 1},    // more workers than cores
		{16, 1, 1, 16, 15}, // one worker of one core
	} {
		if got := coordinatorShare(c.cpus, c.procs, c.cores, c.current); got != c.want {
			t.Errorf("%d cores, %d workers of %d cores, %d now: %d, want %d", c.cpus, c.procs, c.cores, c.current, got, c.want)
		}
	}
}

// The coordinator keeps the cores its workers leave while they run, and
// has the runtime's default back after; a GOMAXPROCS of the user's is
// left alone.
func TestShareCores(t *testing.T) {
	t.Setenv("GOMAXPROCS", "")
	before := runtime.GOMAXPROCS(0)
	restore := shareCores(runtime.NumCPU(), 1)
	if got := runtime.GOMAXPROCS(0); got != 1 {
		t.Errorf("workers taking every core: the coordinator on %d threads, want 1", got)
	}
	restore()
	if got := runtime.GOMAXPROCS(0); got != before {
		t.Errorf("after the run: %d threads, want %d as before", got, before)
	}
	t.Setenv("GOMAXPROCS", "5")
	shareCores(runtime.NumCPU(), 1)()
	if got := runtime.GOMAXPROCS(0); got != before {
		t.Errorf("with GOMAXPROCS set by the user: %d threads, want %d as before", got, before)
	}
}

func TestWorkerGOMAXPROCS(t *testing.T) {
	t.Setenv("GOMAXPROCS", "")
	if got := workerGOMAXPROCS(2); got != "GOMAXPROCS=3" {
		t.Errorf("workers of 2 cores: %q", got)
	}
	t.Setenv("GOMAXPROCS", "3")
	if got := workerGOMAXPROCS(2); got != "" {
		t.Errorf("with the user's GOMAXPROCS: %q, want it inherited", got)
	}
}
