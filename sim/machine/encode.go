package machine

import (
	"encoding/json"
	"fmt"
)

// The stored form of a machine (the store's machines.tree) is JSON in
// which every distinct cluster is written once: a machine of 16,384
// processors made of 8,192 identical two-processor nodes holds three
// entries, not 24,577 nodes. Decoding builds the full tree again, one
// Node per cluster instance, as the machine file's parser does.

// encoded is the stored form of a Machine.
type encoded struct {
	Name       string        `json:"name"`
	Search     int           `json:"search,omitempty"`
	RunWork    float64       `json:"runwork,omitempty"`    // seconds
	IOByte     float64       `json:"iobyte,omitempty"`     // seconds per byte
	Contention float64       `json:"contention,omitempty"` // a fraction per busy neighbour
	Strided    float64       `json:"strided,omitempty"`    // seconds per iteration
	FreshPage  float64       `json:"freshpage,omitempty"`  // seconds per page
	Format     string        `json:"format"`
	Topology   []int         `json:"topology,omitempty"`
	Warnings   []string      `json:"warnings,omitempty"`
	Root       int           `json:"root"` // index in Nodes, -1 for none
	Nodes      []encodedNode `json:"nodes"`
}

// encodedNode is a distinct cluster: its children are runs of Count equal
// children, each an index in Nodes before this one.
type encodedNode struct {
	Name     string         `json:"name"`
	Power    float64        `json:"power,omitempty"`
	TStart   float64        `json:"tstart,omitempty"`
	TByte    float64        `json:"tbyte,omitempty"`
	Channels int            `json:"channels,omitempty"`
	CommType string         `json:"comm,omitempty"`
	Messages []MessagePoint `json:"messages,omitempty"`
	Children [][2]int       `json:"children,omitempty"` // [node index, count]
}

// Encode returns the stored form of m.
func Encode(m *Machine) ([]byte, error) {
	e := encoded{Name: m.Name, Search: m.Search, RunWork: m.RunWork, IOByte: m.IOByte, Contention: m.Contention, Strided: m.Strided, FreshPage: m.FreshPage, Format: m.Format, Topology: m.Topology, Warnings: m.Warnings, Root: -1}
	index := map[string]int{}
	var add func(n *Node) (int, error)
	add = func(n *Node) (int, error) {
		en := encodedNode{Name: n.Name, Power: n.Power, TStart: n.TStart, TByte: n.TByte, Channels: n.Channels, CommType: n.CommType, Messages: n.Messages}
		for _, c := range n.Children {
			i, err := add(c)
			if err != nil {
				return 0, err
			}
			if k := len(en.Children); k > 0 && en.Children[k-1][0] == i {
				en.Children[k-1][1]++
			} else {
				en.Children = append(en.Children, [2]int{i, 1})
			}
		}
		key, err := json.Marshal(en)
		if err != nil {
			return 0, err
		}
		if i, ok := index[string(key)]; ok {
			return i, nil
		}
		index[string(key)] = len(e.Nodes)
		e.Nodes = append(e.Nodes, en)
		return len(e.Nodes) - 1, nil
	}
	if m.Root != nil {
		var err error
		if e.Root, err = add(m.Root); err != nil {
			return nil, err
		}
	}
	return json.Marshal(e)
}

// Decode builds the machine whose stored form is b.
func Decode(b []byte) (*Machine, error) {
	var e encoded
	if err := json.Unmarshal(b, &e); err != nil {
		return nil, fmt.Errorf("stored machine: %w", err)
	}
	m := &Machine{Name: e.Name, Search: e.Search, RunWork: e.RunWork, IOByte: e.IOByte, Contention: e.Contention, Strided: e.Strided, FreshPage: e.FreshPage, Format: e.Format, Topology: e.Topology, Warnings: e.Warnings}
	if e.Root < 0 {
		return m, nil
	}
	if e.Root >= len(e.Nodes) {
		return nil, fmt.Errorf("stored machine %s: root %d of %d clusters", e.Name, e.Root, len(e.Nodes))
	}
	var build func(i int) (*Node, error)
	build = func(i int) (*Node, error) {
		en := &e.Nodes[i]
		n := &Node{Name: en.Name, Power: en.Power, TStart: en.TStart, TByte: en.TByte, Channels: en.Channels, CommType: en.CommType, Messages: en.Messages}
		for _, run := range en.Children {
			// Children come before their parent: an index at or past i
			// would be a cycle.
			if run[0] < 0 || run[0] >= i || run[1] < 1 {
				return nil, fmt.Errorf("stored machine %s: cluster %d has a bad child run %v", e.Name, i, run)
			}
			for range run[1] {
				c, err := build(run[0])
				if err != nil {
					return nil, err
				}
				n.Children = append(n.Children, c)
			}
		}
		return n, nil
	}
	var err error
	m.Root, err = build(e.Root)
	return m, err
}
