package orders

import (
	"context"
	"errors"
	"fmt"
	"math"
	"time"
)

// NetworkFit is what ModeNetwork measured: the cluster of the
// coordinator's worker processes with its network as sim/ordersim prices
// a transfer between two nodes — the mean round trip at each size
// (Points, which the simulator follows piece-wise), and the line fitted
// to them (Latency + bytes/Bandwidth) — and how far that line is from
// the points. An order's arguments and results travel from one worker
// to another through the coordinator's server, over two links, which a
// round trip between the coordinator and a worker crosses too. The
// Transport writes it as a cluster description file
// (sim/machine.Cluster, whose Hub it is: every transfer crosses the
// coordinator's server).
type NetworkFit struct {
	Nodes, Cores int
	Points       []RoundTrip
	Latency      float64 // seconds
	Bandwidth    float64 // bytes per second; 0 when the line does not rise
	// Worst is the largest distance of a point from the line, relative
	// to the point: a single line describes the network when it is small.
	Worst float64
}

// RoundTrip is the mean time of a round trip of Bytes, in seconds.
type RoundTrip struct {
	Bytes   int64
	Seconds float64
}

// networkSizes are the message sizes timed, and networkReps the round
// trips timed at each size with each worker (after one untimed).
var networkSizes = []int64{0, 1 << 10, 16 << 10, 64 << 10, 128 << 10, 1 << 20, 4 << 20}

const networkReps = 7

// calibrateNetwork times round trips between the coordinator and every
// worker of a run of cfg through t, fits the simulator's cost and writes
// the cluster description file (Transport.WriteNetwork) to cfg's output.
func calibrateNetwork(ctx context.Context, t Transport, cfg Config) (*Summary, error) {
	s, err := openSession(ctx, t, cfg)
	if err != nil {
		return nil, err
	}
	defer s.close("")
	start := time.Now()
	fit, err := s.pingPong(ctx)
	if err != nil {
		return nil, err
	}
	fit.Cores = s.cores
	out, closeOut, err := cfg.output()
	if err != nil {
		return nil, err
	}
	err = t.WriteNetwork(out, fit)
	rep := &Summary{Mode: ModeNetwork, Workers: s.procs, Elapsed: time.Since(start), Network: fit}
	return rep, errors.Join(err, closeOut())
}

// pingPong times the round trips and fits them. A round trip carries a
// value of the size encoded as an argument is, which the worker decodes
// and sends back as it came: it pays what a transfer from one worker to
// another through the coordinator pays (an encoding, two links there and
// back through the server, a decoding).
func (s *session) pingPong(ctx context.Context) (*NetworkFit, error) {
	var points []RoundTrip
	for _, size := range networkSizes {
		value := make([]byte, size)
		var times []float64
		for _, n := range s.nodes {
			for rep := range networkReps + 1 {
				t0 := time.Now()
				data, err := encode1(value)
				if err != nil {
					return nil, err
				}
				m, err := s.conn.Request(ctx, message(n.inbox, data, hPing, true))
				if err != nil {
					return nil, fmt.Errorf("orders: timing the network to worker %d: %w", n.index, err)
				}
				if len(m.Data) != len(data) {
					return nil, fmt.Errorf("orders: worker %d answered %d bytes to %d", n.index, len(m.Data), len(data))
				}
				if rep > 0 {
					times = append(times, time.Since(t0).Seconds())
				}
			}
		}
		// The mean, not the median: a run's time is a sum of transfers,
		// the slow ones included (a collection, a page fault).
		var sum float64
		for _, t := range times {
			sum += t
		}
		points = append(points, RoundTrip{Bytes: size, Seconds: sum / float64(len(times))})
	}
	fit := &NetworkFit{Nodes: s.procs, Points: points}
	fit.Latency, fit.Bandwidth, fit.Worst = fitLine(points)
	return fit, nil
}

// fitLine fits seconds = latency + bytes/bandwidth to the points by least
// squares of the relative errors (a small message's time counts as much
// as a large one's), and returns the largest distance of a point from
// the line relative to the point. The simulator follows the points
// themselves; the line is for the DVM's terms, reports and people.
func fitLine(ps []RoundTrip) (latency, bandwidth, worst float64) {
	var sw, sx, sy, sxx, sxy float64
	for _, p := range ps {
		w := 1 / (p.Seconds * p.Seconds)
		x := float64(p.Bytes)
		sw, sx, sy, sxx, sxy = sw+w, sx+w*x, sy+w*p.Seconds, sxx+w*x*x, sxy+w*x*p.Seconds
	}
	slope := (sw*sxy - sx*sy) / (sw*sxx - sx*sx)
	latency = (sy - slope*sx) / sw
	if slope > 0 {
		bandwidth = 1 / slope
	}
	for _, p := range ps {
		worst = max(worst, math.Abs(latency+slope*float64(p.Bytes)-p.Seconds)/p.Seconds)
	}
	return latency, bandwidth, worst
}
