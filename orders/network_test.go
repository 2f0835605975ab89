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

// A worker asked to time round trips of a size it cannot read says so
// (the coordinator then fails the calibration with it).
func TestRoundTripsRefuseABadSize(t *testing.T) {
	if _, err := (&node{}).roundTrips("an inbox", "12x"); err == nil || !strings.Contains(err.Error(), `"12x"`) {
		t.Errorf("round trips of 12x bytes: %v, want an error naming the size", err)
	}
}
