package ordersim

import (
	"reflect"
	"testing"
	"unsafe"
)

// TestAdoptedMemoryChangesNothing simulates a trace on fresh memory, then
// on the memory a bigger simulation of another shape left, and expects
// the same prediction.
func TestAdoptedMemoryChangesNothing(t *testing.T) {
	small := func() *Result {
		r, err := Simulate(openDAC(8), Cluster{Nodes: 5, Cores: 2, Latency: 1e-3, Bandwidth: 1e9}, Options{ByProc: true, PathSteps: 50})
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	for memories.Get() != nil { // drain what other tests left
	}
	fresh := small()
	if _, err := Simulate(openMaster(50, 40), Cluster{Nodes: 3}, Options{ByProc: true}); err != nil {
		t.Fatal(err)
	}
	if _, err := Simulate(openDAC(12), Cluster{Nodes: 64}, Options{Scheduler: WorkStealing, ByProc: true}); err != nil {
		t.Fatal(err)
	}
	if adopted := small(); !reflect.DeepEqual(fresh, adopted) {
		t.Errorf("on adopted memory:\n%+v\nwant, as on fresh memory:\n%+v", adopted, fresh)
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
