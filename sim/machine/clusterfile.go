package machine

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
)

// ClusterFormat names the cluster description file: one JSON object that
// run mode's network calibration writes (-orders.mode network), run mode
// starts its worker processes from (-orders.cluster) and presage orders
// simulate and sweep play traces on (--cluster), so that the runtime
// and the simulator work on one description (docs/orders.md).
const ClusterFormat = "presage-cluster"

// clusterFile is the file's object.
type clusterFile struct {
	Format    string         `json:"format"`
	Nodes     int            `json:"nodes"`
	Cores     int            `json:"cores,omitempty"`
	Power     []float64      `json:"power,omitempty"`
	Latency   float64        `json:"latency"`         // seconds
	TByte     float64        `json:"tbyte,omitempty"` // seconds per byte, the DVM's form; or
	Bandwidth float64        `json:"bandwidth"`       // bytes per second, 0 for unlimited
	Messages  []MessagePoint `json:"messages,omitempty"`
	Hub       bool           `json:"hub,omitempty"`
	Relay     []MessagePoint `json:"relay,omitempty"`
	OrderCost float64        `json:"order_cost,omitempty"` // seconds
	WaitCost  float64        `json:"wait_cost,omitempty"`  // seconds
	Ahead     int            `json:"ahead,omitempty"`      // orders started ahead on a busy core
	AheadMax  int            `json:"ahead_max,omitempty"`  // as many as a core may come to hold
}

// WriteCluster writes c as a cluster description file.
func WriteCluster(w io.Writer, c Cluster) error {
	b, err := json.MarshalIndent(clusterFile{Format: ClusterFormat, Nodes: c.Nodes, Cores: c.Cores, Power: c.Power,
		Latency: c.Latency, TByte: c.TByte, Bandwidth: c.Bandwidth, Messages: c.Messages, Hub: c.Hub, Relay: c.Relay,
		OrderCost: c.OrderCost, WaitCost: c.WaitCost, Ahead: c.Ahead, AheadMax: c.AheadMax}, "", "  ")
	if err == nil {
		_, err = fmt.Fprintf(w, "%s\n", b)
	}
	return err
}

// ReadClusterFile reads the cluster description file at path, a regular
// file: a FIFO would block the command until a writer came, a device
// never ends.
func ReadClusterFile(path string) (Cluster, error) {
	if st, err := os.Stat(path); err == nil && !st.Mode().IsRegular() {
		return Cluster{}, fmt.Errorf("%s: not a regular file (a named pipe, a device or a directory): expected a %s JSON file", path, ClusterFormat)
	}
	f, err := os.Open(path)
	if err != nil {
		return Cluster{}, err
	}
	defer f.Close()
	return ReadCluster(io.LimitReader(f, maxClusterFile), path)
}

// maxClusterFile bounds a cluster description: a few numbers and a table
// of message times.
const maxClusterFile = 64 << 20

// ReadCluster reads the cluster description file named name from r.
func ReadCluster(r io.Reader, name string) (Cluster, error) {
	var f clusterFile
	dec := json.NewDecoder(r)
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		return Cluster{}, fmt.Errorf("%s: %w (expected a %s JSON object)", name, err, ClusterFormat)
	}
	if f.Format != ClusterFormat {
		return Cluster{}, fmt.Errorf("%s: format %.64q (expected %q)", name, f.Format, ClusterFormat)
	}
	c := Cluster{Nodes: f.Nodes, Cores: f.Cores, Latency: f.Latency, TByte: f.TByte, Bandwidth: f.Bandwidth, Hub: f.Hub,
		OrderCost: f.OrderCost, WaitCost: f.WaitCost, Ahead: f.Ahead, AheadMax: f.AheadMax}
	if len(f.Power) > 0 { // "power": [] means none, as no "power" does
		c.Power = f.Power
	}
	if len(f.Messages) > 0 {
		c.Messages = f.Messages
	}
	if len(f.Relay) > 0 {
		c.Relay = f.Relay
	}
	if err := c.Validate(); err != nil {
		return Cluster{}, fmt.Errorf("%s: %w", name, err)
	}
	return c, nil
}
