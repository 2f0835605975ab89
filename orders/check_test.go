package orders

import "testing"

// TestFingerprint: equal values have equal fingerprints and a change
// anywhere reachable changes it; maps in any order, cycles and handles.
func TestFingerprint(t *testing.T) {
	type node struct {
		V    int
		next *node
		m    map[string][]float64
		h    *Handle[int]
	}
	build := func() *node {
		a := &node{V: 1, m: map[string][]float64{"x": {1, 2}, "y": {3}}}
		a.next = &node{V: 2, next: a} // a cycle
		return a
	}
	base := fingerprint(build())
	if fingerprint(build()) != base {
		t.Fatal("equal values, different fingerprints")
	}
	for name, change := range map[string]func(*node){
		"a field":                  func(n *node) { n.V = 5 },
		"through a pointer":        func(n *node) { n.next.V = 7 },
		"an unexported slice item": func(n *node) { n.m["x"][1] = 9 },
		"a map entry":              func(n *node) { n.m["z"] = nil },
	} {
		n := build()
		change(n)
		if fingerprint(n) == base {
			t.Errorf("changing %s left the fingerprint", name)
		}
	}
	n := build()
	n.h = &Handle[int]{o: &order{}, result: 4} // a reference to another order's result
	if fingerprint(n) != base {
		t.Error("a handle changed the fingerprint")
	}
	if fingerprint([]float64{1, 2}) == fingerprint([]float64{1, 2, 0}) || fingerprint("ab", "c") == fingerprint("a", "bc") {
		t.Error("lengths are not in the fingerprint")
	}
}
