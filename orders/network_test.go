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
