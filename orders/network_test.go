package orders

import (
	"math"
	"strings"
	"testing"
)

func TestFitLineFindsLatencyAndBandwidth(t *testing.T) {
	const latency, bandwidth = 2e-3, 12.5e6 // 2 ms, 100 Mbit/s
	var ps []TransferTime
	for _, b := range networkSizes {
		ps = append(ps, TransferTime{Bytes: b, Seconds: latency + float64(b)/bandwidth})
	}
	l, bw, worst := fitLine(ps)
	if math.Abs(l-latency) > 1e-12 || math.Abs(bw-bandwidth)/bandwidth > 1e-9 || worst > 1e-9 {
		t.Errorf("fit of an exact line: latency %g, bandwidth %g, worst %g; want %g, %g, 0", l, bw, worst, latency, bandwidth)
	}
	ps[len(ps)-1].Seconds *= 2 // a slow large message
	if _, _, worst := fitLine(ps); worst < 0.2 {
		t.Errorf("a point twice the line's time: worst %g, want it reported", worst)
	}
}

// The answer to a round trip must be the value sent: as it went, or
// encoded again.
func TestCheckPong(t *testing.T) {
	value := []byte("twelve bytes")
	data, err := encode1(value)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name    string
		answer  []byte
		encoded bool
		want    string
	}{
		{"as it went", data, false, ""},
		{"encoded again", data, true, ""},
		{"short", data[:3], false, "answered 3 bytes"},
		{"not a value", []byte{0xff, 0xff}, true, "the worker's answer"},
		{"another value", mustEncode(t, []byte("four")), true, "a value of 4 bytes to 12"},
	} {
		err := checkPong(c.answer, data, value, c.encoded)
		if c.want == "" && err != nil || c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)) {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
	}
}

func mustEncode(t *testing.T, v []byte) []byte {
	b, err := encode1(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestSplitWaits: two runs of the same orders, told apart by their waits,
// give the cost of each; runs of as many waits price the waits at
// nothing; noise that would make a cost negative leaves a nanosecond.
func TestSplitWaits(t *testing.T) {
	for _, c := range []struct {
		name        string
		n           int
		cpu1        float64
		w1          int
		cpu2        float64
		w2          int
		order, wait float64
	}{
		// 100 orders of 2 ms, 50 and 10 waits of 5 ms.
		{"apart", 100, 0.45, 50, 0.25, 10, 0.002, 0.005},
		{"as many waits", 100, 0.3, 10, 0.3, 10, 0.003, 0},
		{"fewer waits cost more", 100, 0.2, 50, 0.3, 10, 0.003 - 10*1e-9/100, 1e-9},
		{"waits are all", 10, 0.5, 10, 0.1, 2, 1e-9, 0.05},
	} {
		order, wait := splitWaits(c.n, c.cpu1, c.w1, c.cpu2, c.w2)
		if math.Abs(order-c.order) > 1e-12 || math.Abs(wait-c.wait) > 1e-12 {
			t.Errorf("%s: order %g, wait %g; want %g, %g", c.name, order, wait, c.order, c.wait)
		}
	}
}

// TestProbeOrders: the probe's runs make as many orders as take about a
// quarter of a second on the links timed, within 64 and 1,024.
func TestProbeOrders(t *testing.T) {
	for _, c := range []struct {
		empty float64 // seconds of an empty transfer
		want  int
	}{
		{0.000140, 892}, // this machine's loopback
		{0.000460, 271}, // the network check's 200 µs links
		{0.0024, 64},    // its 2 ms links: 52, raised to the least
		{1e-9, 1024},    // no time at all: the most
	} {
		if got := probeOrders(c.empty); got != c.want {
			t.Errorf("probeOrders(%g) = %d, want %d", c.empty, got, c.want)
		}
	}
}
