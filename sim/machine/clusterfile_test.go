package machine

import (
	"bytes"
	"reflect"
	"strings"
	"testing"
)

func TestClusterFileRoundTrips(t *testing.T) {
	for _, c := range []Cluster{
		{Nodes: 3, Cores: 2, Latency: 1e-3, Bandwidth: 1e8, Messages: []MessagePoint{{0, 1e-3}, {1 << 20, 0.012}}, Hub: true},
		{Nodes: 2, Latency: 7e-6, TByte: 4e-9}, // the DVM's form, as a machine's top level gives it
		{Nodes: 2, Latency: 2e-4, Bandwidth: 3e8, Hub: true, OrderCost: 2.7e-4, WaitCost: 1.1e-4},
		{Nodes: 2, Latency: 2e-4, Bandwidth: 3e8, Hub: true, Ahead: 2},
		{Nodes: 2, Latency: 2e-4, Bandwidth: 3e8, Hub: true, Ahead: 2, AheadMax: 16},
		{Nodes: 2, Messages: []MessagePoint{{0, 2e-4}, {1 << 16, 7e-4}}, Hub: true, Relay: []MessagePoint{{0, 1e-5}, {1 << 16, 9e-5}}},
	} {
		if back, err := writeAndRead(t, c); err != nil || !reflect.DeepEqual(back, c) {
			t.Fatalf("read back %+v, %v; want %+v", back, err, c)
		}
	}
}

// writeAndRead writes c as a cluster file and reads it back.
func writeAndRead(t *testing.T, c Cluster) (Cluster, error) {
	t.Helper()
	var b bytes.Buffer
	if err := WriteCluster(&b, c); err != nil {
		t.Fatal(err)
	}
	return ReadCluster(&b, "back.json")
}

func TestReadClusterNamesWhatIsWrong(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{`{"format":"presage-cluster","nodes":0,"latency":0,"bandwidth":0}`, "c.json: cluster of 0 nodes (expected at least 1)"},
		{`{"format":"other","nodes":1}`, `c.json: format "other" (expected "presage-cluster")`},
		{`{"format":"presage-cluster","nodes":1,"latncy":1}`, `c.json: json: unknown field "latncy" (expected a presage-cluster JSON object)`},
		{`{"format":"presage-cluster","nodes":1,"messages":[{"bytes":10,"seconds":1},{"bytes":5,"seconds":2}]}`, "c.json: messages[1].bytes = 5 (expected sizes ≥ 0 in increasing order)"},
		{`{"format":"presage-cluster","nodes":1,"messages":[{"bytes":10,"seconds":1}]}`, "c.json: messages: 1 time (expected none, or at least 2 for the pieces between them)"},
		{`{"format":"presage-cluster","nodes":1,"messages":[{"bytes":0,"seconds":-1},{"bytes":5,"seconds":2}]}`, "c.json: messages[0].seconds = -1 (expected a finite number ≥ 0)"},
		{`{"format":"presage-cluster","nodes":1,"order_cost":-0.001}`, "c.json: order_cost = -0.001 (expected a finite number ≥ 0)"},
		{`{"format":"presage-cluster","nodes":1,"wait_cost":-1}`, "c.json: wait_cost = -1 (expected a finite number ≥ 0)"},
		{`{"format":"presage-cluster","nodes":1,"ahead":-2}`, "c.json: ahead = -2 (expected orders started ahead on a busy core, 0 or more)"},
		{`{"format":"presage-cluster","nodes":1,"ahead":2,"ahead_max":1}`, "c.json: ahead_max = 1 (expected the most orders started ahead on a busy core, at least ahead = 2, or 0 for ahead)"},
		{`{"format":"presage-cluster","nodes":2,"relay":[{"bytes":0,"seconds":1e-5},{"bytes":5,"seconds":2e-5}]}`, `c.json: 2 relay times without a hub (expected relay only with "hub": true)`},
		{`{"format":"presage-cluster","nodes":2,"hub":true,"relay":[{"bytes":8,"seconds":1e-5},{"bytes":5,"seconds":2e-5}]}`, "c.json: relay[1].bytes = 5 (expected sizes ≥ 0 in increasing order)"},
	} {
		_, err := ReadCluster(strings.NewReader(c.text), "c.json")
		if err == nil || err.Error() != c.want {
			t.Errorf("%s:\n got %v\nwant %s", c.text, err, c.want)
		}
	}
}

// FuzzReadCluster: whatever the file, ReadCluster refuses it or returns a
// valid cluster that writes and reads back the same.
func FuzzReadCluster(f *testing.F) {
	f.Add(`{"format":"presage-cluster","nodes":2,"cores":4,"latency":0.001,"bandwidth":1e9,"messages":[{"bytes":0,"seconds":0.001},{"bytes":1024,"seconds":0.002}]}`)
	f.Add(`{"format":"presage-cluster","nodes":1,"power":[1,2]}`)
	f.Add(`{"format":"presage-cluster","nodes":2,"latency":0.0002,"bandwidth":3e8,"hub":true,"order_cost":0.00027,"wait_cost":0.00011}`)
	f.Add(`{"format":"presage-cluster","nodes":2,"latency":0.0002,"bandwidth":3e8,"hub":true,"ahead":2}`)
	f.Add(`{"format":"presage-cluster","nodes":2,"latency":0.0002,"bandwidth":3e8,"hub":true,"ahead":2,"ahead_max":16}`)
	f.Add(`{"format":"presage-cluster","nodes":2,"messages":[{"bytes":0,"seconds":2e-4},{"bytes":65536,"seconds":7e-4}],"hub":true,"relay":[{"bytes":0,"seconds":1e-5},{"bytes":65536,"seconds":9e-5}]}`)
	f.Fuzz(func(t *testing.T, text string) {
		c, err := ReadCluster(strings.NewReader(text), "f.json")
		if err != nil {
			return
		}
		if err := c.Validate(); err != nil {
			t.Fatalf("read an invalid cluster %+v: %v", c, err)
		}
		if back, err := writeAndRead(t, c); err != nil || !reflect.DeepEqual(back, c) {
			t.Fatalf("%+v read back as %+v, %v", c, back, err)
		}
	})
}
