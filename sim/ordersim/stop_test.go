package ordersim

import (
	"errors"
	"testing"
)

// TestStopEndsTheSimulation asks a simulation of a trace several times
// ProgressEvery orders long to stop at Stop's third call, and expects
// Stop's error back, without the simulation reading on to the end.
func TestStopEndsTheSimulation(t *testing.T) {
	const depth = 18 // 524,287 orders: 8 times ProgressEvery
	stop := errors.New("stopped by the caller")
	for _, sched := range []Scheduler{FIFO, WorkStealing} {
		calls := 0
		opt := Options{Scheduler: sched, Stop: func() error {
			if calls++; calls == 3 {
				return stop
			}
			return nil
		}}
		_, err := Simulate(openDAC(depth), Cluster{Nodes: 16, Cores: 2}, opt)
		if !errors.Is(err, stop) {
			t.Errorf("%s: got %v, want Stop's error", sched, err)
		}
		if calls != 3 {
			t.Errorf("%s: Stop was asked %d times, want 3 (it ended at the third)", sched, calls)
		}
	}
	calls := 0
	if _, err := Simulate(openDAC(depth), Cluster{Nodes: 16, Cores: 2}, Options{Stop: func() error { calls++; return nil }}); err != nil {
		t.Fatal(err)
	}
	if want := 2 * int(dacOrders(depth)/ProgressEvery); calls != want {
		t.Errorf("a simulation that goes on asked Stop %d times, want %d (every ProgressEvery orders read and finished)", calls, want)
	}
}
