package machine

import (
	"bytes"
	"reflect"
	"strings"
	"testing"
)

// Messages priced piece-wise: on a point, its time; between two, the
// line between them; below the first, its time; beyond the last, along
// the last piece.
func TestMessageTimeFollowsThePoints(t *testing.T) {
	n := Network{Latency: 9, Bandwidth: 1, Messages: []MessagePoint{{0, 1}, {100, 2}, {1000, 20}}}
	for _, c := range []struct {
		bytes int64
		want  float64
	}{{0, 1}, {50, 1.5}, {100, 2}, {550, 11}, {1000, 20}, {2000, 40}} {
		if got := n.MessageTime(c.bytes); got != c.want {
			t.Errorf("%d bytes: %v s, want %v", c.bytes, got, c.want)
		}
	}
	from10 := Network{Messages: []MessagePoint{{10, 3}, {20, 4}}}
	if got := from10.MessageTime(0); got != 3 {
		t.Errorf("below the first point: %v s, want its 3", got)
	}
	line := Network{Latency: 1, Bandwidth: 10}
	if got := line.MessageTime(20); got != 3 {
		t.Errorf("without points: %v s, want latency + bytes/bandwidth = 3", got)
	}
	if (Network{}).Free() == false || (Network{Messages: n.Messages}).Free() {
		t.Error("a network is free exactly when it has no latency, bandwidth or points")
	}
}

func TestClusterFileRoundTrips(t *testing.T) {
	c := Cluster{Nodes: 3, Cores: 2, Latency: 1e-3, Bandwidth: 1e8, Messages: []MessagePoint{{0, 1e-3}, {1 << 20, 0.012}}, Hub: true}
	if back, err := writeAndRead(t, c); err != nil || !reflect.DeepEqual(back, c) {
		t.Fatalf("read back %+v, %v; want %+v", back, err, c)
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
		{`{"format":"presage-cluster","nodes":1,"messages":[{"bytes":10,"seconds":1}]}`, "c.json: 1 message time (expected none, or at least 2 for the pieces between them)"},
		{`{"format":"presage-cluster","nodes":1,"messages":[{"bytes":0,"seconds":-1},{"bytes":5,"seconds":2}]}`, "c.json: messages[0].seconds = -1 (expected a finite number ≥ 0)"},
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
