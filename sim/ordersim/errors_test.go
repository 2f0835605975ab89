package ordersim

import (
	"strings"
	"testing"

	"github.com/presage-dvm/presage/sim/ordertrace"
)

func TestClusterErrors(t *testing.T) {
	tests := []struct {
		cl   Cluster
		opt  Options
		want string
	}{
		{Cluster{}, Options{Pin: true}, "cluster of 0 nodes (expected at least 1)"},
		{Cluster{Nodes: 1, Cores: -1}, Options{Pin: true}, "-1 cores per node"},
		{Cluster{Nodes: 2, Power: []float64{1, 2, 3}}, Options{Pin: true}, "3 power values for 2 nodes"},
		{Cluster{Nodes: 1, Power: []float64{0}}, Options{Pin: true}, "power[0] = 0 (expected a number of times the traced processor's speed from 0.001 to 100)"},
		{Cluster{Nodes: 1, Latency: -1}, Options{Pin: true}, "latency = -1 (expected a number of seconds from 0 to 10)"},
		{Cluster{Nodes: 1, Bandwidth: posInf()}, Options{Pin: true}, "bandwidth = +Inf"},
		{Cluster{Nodes: 1, Latency: nan()}, Options{Pin: true}, "latency = NaN"},
		{Cluster{Nodes: 1}, Options{Pin: true, Scheduler: "random"}, `unknown scheduler "random"`},
		{Cluster{Nodes: 1}, Options{Pin: true, LocalitySlack: -2}, "locality slack -2"},
	}
	for _, tt := range tests {
		_, err := Simulate(forkJoin().open, tt.cl, tt.opt)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%+v %+v: error %v, want %q", tt.cl, tt.opt, err, tt.want)
		}
	}
}

func TestTraceErrors(t *testing.T) {
	tests := []struct {
		name string
		tr   orders
		want string
	}{
		{"empty", orders{}, "the trace has no order"},
		{"ids", orders{ord(1, 0, 0, 1), ord(3, 1, 0, 1)}, "order 3 where order 2 was expected"},
		{"main parent", orders{ord(1, 5, 0, 1)}, "order 1 has parent 5 (expected 0"},
		{"parent", orders{ord(1, 0, 0, 1), ord(2, 2, 0, 1)}, "order 2 has parent 2 (expected an earlier order)"},
		{"no result", orders{{ID: 1, Duration: 1}}, "order 1 provides no result"},
		{"made after the end", orders{ord(1, 0, 0, 1), ord(2, 1, 2, 1)}, "order 2 is made at 2, after its parent 1 ends at 1"},
		{"siblings", orders{ord(1, 0, 0, 3), ord(2, 1, 2, 1), ord(3, 1, 1, 1)}, "expected siblings in order of making"},
		{"result index", orders{ord(1, 0, 0, 3, ordertraceRequest(2, 1, 1)), ord(2, 1, 0, 1)}, "order 1 requests result 1 of order 2, which provides 1"},
		{"deadlock", orders{ord(1, 0, 0, 3, rq(2, 1)), ord(2, 1, 0, 1, rq(1, 0))}, "deadlock"},
		{"request of no order", orders{ord(1, 0, 0, 3, rq(7, 1)), ord(2, 1, 0, 1)}, "a request names order 7, which is not in the trace (it has 2)"},
		{"request of order 0", orders{ord(1, 0, 0, 3, rq(0, 1))}, "order 1 requests order 0 (expected an id ≥ 1)"},
	}
	for _, tt := range tests {
		_, err := Simulate(tt.tr.open, Cluster{Nodes: 2}, Options{Pin: true})
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: error %v, want %q", tt.name, err, tt.want)
		}
	}
}

// TestDeadlockBesideMain: main ends, but two of its children wait for
// each other.
func TestDeadlockBesideMain(t *testing.T) {
	tr := orders{ord(1, 0, 0, 1), ord(2, 1, 0, 2, rq(3, 1)), ord(3, 1, 0, 2, rq(2, 1))}
	_, err := Simulate(tr.open, Cluster{Nodes: 2}, Options{Pin: true})
	if err == nil || !strings.Contains(err.Error(), "deadlock: no event left and 2 of 3 orders unfinished (order 2 waits at 1; order 3 waits at 1)") {
		t.Errorf("error %v, want the deadlock of orders 2 and 3", err)
	}
}

// TestNegativeResultIndex: a source other than the reader, which rejects
// them, may hand a negative result index; it is an error, not a panic.
// Such a list does not fit the request store's slots and is kept as it
// is, so a Scanner must not decode the next line into it (order 2's
// request would take the place of order 1's).
func TestNegativeResultIndex(t *testing.T) {
	for _, tr := range []orders{
		{ord(1, 0, 0, 3, ordertraceRequest(2, -1, 2)), ord(2, 1, 0, 1, rq(3, 0.5)), ord(3, 1, 0, 1)}, // provided before the request
		{ord(1, 0, 0, 3, ordertraceRequest(2, -1, 0)), ord(2, 1, 0, 1, rq(3, 0.5)), ord(3, 1, 0, 1)}, // requested before it is provided
	} {
		for _, open := range []func() (ordertrace.Source, error){tr.open, tr.openScanner} {
			_, err := Simulate(open, Cluster{Nodes: 2}, Options{Pin: true})
			if err == nil || !strings.Contains(err.Error(), "order 1 requests result -1 of order 2 (expected an index ≥ 0)") {
				t.Errorf("error %v, want the negative index", err)
			}
		}
	}
}
