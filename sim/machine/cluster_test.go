package machine

import (
	"reflect"
	"strings"
	"testing"
)

// TestClusterDefaultsAndNetwork: the defaults both engines rely on, and
// the network in the DVM's terms.
func TestClusterDefaultsAndNetwork(t *testing.T) {
	for _, tc := range []struct {
		c           Cluster
		cores       int
		power1      float64
		msg1000     float64 // a message of 1000 bytes
		tbyte       float64
		invalidWith string // "": valid
	}{
		{Cluster{Nodes: 2}, 1, 1, 0, 0, ""},
		{Cluster{Nodes: 2, Cores: 4, Power: []float64{2}, Latency: 1e-3, Bandwidth: 1e6}, 4, 2, 2e-3, 1e-6, ""},
		{Cluster{Nodes: 2, Power: []float64{1, 3}, Latency: 0.5}, 1, 3, 0.5, 0, ""},
		{Cluster{Nodes: 0}, 1, 1, 0, 0, "cluster of 0 nodes"},
		{Cluster{Nodes: 3, Power: []float64{1, 3}}, 1, 3, 0, 0, "2 power values for 3 nodes"},
		{Cluster{Nodes: 1, Bandwidth: -1}, 1, 1, 0, -1, "bandwidth = -1"},
		{Cluster{Nodes: 2, Latency: 1e-3, TByte: 1e-6}, 1, 1, 2e-3, 1e-6, ""},
		{Cluster{Nodes: 2, TByte: 1e-6, Bandwidth: 1e6}, 1, 1, 0, 0, "one form of the time per byte"},
	} {
		err := tc.c.Validate()
		if tc.invalidWith != "" {
			if err == nil || !strings.Contains(err.Error(), tc.invalidWith) {
				t.Errorf("%+v: error %v, want %q", tc.c, err, tc.invalidWith)
			}
			continue
		}
		if err != nil {
			t.Errorf("%+v: %v", tc.c, err)
		}
		if _, tbyte := tc.c.Link().Line(); tc.c.CoresPerNode() != tc.cores || tc.c.NodePower(1) != tc.power1 || tc.c.MessageTime(1000) != tc.msg1000 || tbyte != tc.tbyte {
			t.Errorf("%+v: %d cores, power of node 1 %g, 1000 bytes in %g s, tbyte %g; want %d, %g, %g, %g", tc.c,
				tc.c.CoresPerNode(), tc.c.NodePower(1), tc.c.MessageTime(1000), tbyte, tc.cores, tc.power1, tc.msg1000, tc.tbyte)
		}
	}
}

// TestMachineCluster reads the top level of machine trees as clusters.
func TestMachineCluster(t *testing.T) {
	leaf := func(p float64) *Node { return &Node{Name: "p", Power: p} }
	node := func(ps ...float64) *Node {
		n := &Node{Name: "n", TStart: 1e-6, TByte: 1e-9}
		for _, p := range ps {
			n.Children = append(n.Children, leaf(p))
		}
		return n
	}
	tests := []struct {
		name string
		root *Node
		want Cluster
	}{
		{"one processor", leaf(2), Cluster{Nodes: 1, Cores: 1, Power: []float64{2}}},
		{"one node of 4", node(1, 1, 1, 1), Cluster{Nodes: 1, Cores: 4, Power: []float64{1}, Latency: 1e-6, TByte: 1e-9}},
		{"3 nodes of 2", &Node{TStart: 2e-5, TByte: 1e-8, Children: []*Node{node(1, 1), node(1, 1), node(1, 1)}},
			Cluster{Nodes: 3, Cores: 2, Power: []float64{1}, Latency: 2e-5, TByte: 1e-8}},
		{"nodes of other powers", &Node{TStart: 2e-5, Children: []*Node{node(1, 3), node(4, 4)}},
			Cluster{Nodes: 2, Cores: 2, Power: []float64{2, 4}, Latency: 2e-5}},
	}
	for _, tt := range tests {
		got := (&Machine{Root: tt.root}).Cluster()
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s: %+v, want %+v", tt.name, got, tt.want)
		}
	}
}
