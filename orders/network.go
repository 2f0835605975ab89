package orders

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"time"
)

// NetworkFit is the network between a coordinator and its worker
// processes (ModeNetwork) as sim/ordersim prices a transfer between two
// nodes: Latency + bytes/Bandwidth (presage orders simulate --latency,
// --bandwidth). An order's arguments and results travel from one worker
// to another through the coordinator's server, over two links, which a
// round trip between the coordinator and a worker crosses too: the fit is
// of the round trips' median at each size.
type NetworkFit struct {
	Format    string         `json:"format"` // "presage-network"
	Workers   int            `json:"workers"`
	Latency   float64        `json:"latency"`   // seconds
	Bandwidth float64        `json:"bandwidth"` // bytes per second
	Points    []NetworkPoint `json:"points"`
	// Worst is the largest distance of a point from the line, relative
	// to the point: a single line describes the network when it is small.
	Worst float64 `json:"worst"`
}

// NetworkPoint is the median round trip of messages of Bytes each way.
type NetworkPoint struct {
	Bytes   int64   `json:"bytes"`
	Seconds float64 `json:"seconds"`
}

// networkSizes are the message sizes timed, and networkReps the round
// trips timed at each size with each worker (after one untimed).
var networkSizes = []int64{0, 1 << 10, 16 << 10, 128 << 10, 1 << 20, 4 << 20}

const networkReps = 7

// calibrateNetwork times round trips between the coordinator and every
// worker of cfg's plan, fits the simulator's cost and writes it.
func calibrateNetwork(ctx context.Context, cfg Config) (*Summary, error) {
	s, err := openSession(ctx, cfg)
	if err != nil {
		return nil, err
	}
	defer s.close("")
	start := time.Now()
	fit, err := s.pingPong(ctx)
	if err != nil {
		return nil, err
	}
	out, closeOut, err := cfg.output()
	if err != nil {
		return nil, err
	}
	b, err := json.Marshal(fit)
	if err == nil {
		_, err = fmt.Fprintf(out, "%s\n", b)
	}
	rep := &Summary{Mode: ModeNetwork, Workers: s.procs, Elapsed: time.Since(start), Network: fit}
	return rep, errors.Join(err, closeOut())
}

// pingPong times the round trips and fits them.
func (s *session) pingPong(ctx context.Context) (*NetworkFit, error) {
	fit := &NetworkFit{Format: "presage-network", Workers: s.procs}
	for _, size := range networkSizes {
		data := make([]byte, size)
		var times []float64
		for _, n := range s.nodes {
			for rep := range networkReps + 1 {
				t0 := time.Now()
				m, err := s.nc.RequestMsgWithContext(ctx, message(n.inbox, data, hPing, true))
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
		slices.Sort(times)
		fit.Points = append(fit.Points, NetworkPoint{Bytes: size, Seconds: times[len(times)/2]})
	}
	fit.Latency, fit.Bandwidth, fit.Worst = fitLine(fit.Points)
	return fit, nil
}

// fitLine fits seconds = latency + bytes/bandwidth to the points by least
// squares of the relative errors (a small message's time counts as much
// as a large one's), and returns the largest distance of a point from
// the line relative to the point.
func fitLine(ps []NetworkPoint) (latency, bandwidth, worst float64) {
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
