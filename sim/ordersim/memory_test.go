package ordersim

import (
	"context"
	"reflect"
	"testing"
	"unsafe"
)

// TestWorkspaceChangesNothing simulates a trace on a fresh Workspace,
// then on the Workspace a bigger simulation of another shape left, and
// expects the same prediction.
func TestWorkspaceChangesNothing(t *testing.T) {
	small := func(w *Workspace) *Result {
		r, err := Simulate(openDAC(8), Cluster{Nodes: 5, Cores: 2, Latency: 1e-3, Bandwidth: 1e9}, Options{ByProc: true, PathSteps: 50, Workspace: w})
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	fresh := small(new(Workspace))
	w := new(Workspace)
	if _, err := Simulate(openMaster(50, 40), Cluster{Nodes: 3}, Options{ByProc: true, Workspace: w}); err != nil {
		t.Fatal(err)
	}
	if _, err := Simulate(openDAC(12), Cluster{Nodes: 64}, Options{Scheduler: WorkStealing, ByProc: true, Workspace: w}); err != nil {
		t.Fatal(err)
	}
	if len(w.lives) == 0 || len(w.links) == 0 {
		t.Fatalf("a finished simulation left %d chunks of lives and %d of links in its Workspace, want some of each", len(w.lives), len(w.links))
	}
	if used := small(w); !reflect.DeepEqual(fresh, used) {
		t.Errorf("on a used Workspace:\n%+v\nwant, as on a fresh one:\n%+v", used, fresh)
	}
	if none := small(nil); !reflect.DeepEqual(fresh, none) {
		t.Errorf("without a Workspace:\n%+v\nwant, as on a fresh one:\n%+v", none, fresh)
	}
}

// TestSizesKeepWorkspaces expects a Sizes to hand a finished simulation's
// memory to the next: after a run, its one Workspace holds arenas.
func TestSizesKeepWorkspaces(t *testing.T) {
	tr, err := Prepare(openDAC(10))
	if err != nil {
		t.Fatal(err)
	}
	s, err := tr.Sizes(Cluster{}, Options{Workspace: new(Workspace)})
	if err != nil {
		t.Fatal(err)
	}
	if s.opt.Workspace != nil {
		t.Fatal("Sizes kept the caller's Workspace, which its concurrent simulations would share")
	}
	for _, n := range []int{4, 2} {
		if _, err := s.At(context.Background(), n); err != nil {
			t.Fatal(err)
		}
	}
	if len(s.spaces.free) != 1 || len(s.spaces.free[0].lives) == 0 {
		t.Errorf("after two simulations one after the other, %d kept Workspaces, want 1 holding the arenas", len(s.spaces.free))
	}
}

// TestLiveSize guards the size of a live order: a FIFO simulation of a
// divide and conquer holds nearly every order at once, and a byte more
// per order is 10 MB more at 10M orders, each costing a page's zeroing.
func TestLiveSize(t *testing.T) {
	if got := unsafe.Sizeof(live{}); got != 152 {
		t.Errorf("a live order takes %d bytes, want 152 (order.go)", got)
	}
}
