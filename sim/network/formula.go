package network

import "math"

// The design formulas of the bus and mesh ("transputer grid") networks of
// the 2000 Predictor design (seed 000 §4.2-§4.4). They are pure functions of
// the start-up time ts and the time per byte tb (seconds); docs/networks.md
// derives them.

// message is the time of one message of n bytes between neighbours.
func message(ts, tb float64, n int64) float64 { return ts + float64(n)*tb }

// BusReduction is the duration of a reduction of total bytes on a bus of n
// processors whose partial results lie in sections of s processors (s = the
// product of the sizes of the grid dimensions the loop is distributed on):
// s−1 messages gather one section, n−1 messages broadcast the result.
func BusReduction(ts, tb float64, total int64, s, n int) float64 {
	msgs := s + n - 2
	if msgs <= 0 {
		return 0
	}
	return (ts + tb*float64(total)) * float64(msgs)
}

// MeshReduction is the duration of a reduction of total bytes on a mesh:
// distance hops to gather to a section's centre, as many to broadcast back,
// and corner hops to carry the result to the farthest corner processor.
func MeshReduction(ts, tb float64, total int64, distance, corner int) float64 {
	return (ts + tb*float64(total)) * float64(2*distance+corner)
}

// MeshTime is the time to send the largest message, lb bytes, over the
// longest distance l (hops) of an exchange on a mesh: ts + lb·tb for a
// neighbour, else the message is pipelined in packets of the optimal size
// (see PacketSize). It is 0 when l or lb is 0.
func MeshTime(ts, tb float64, l int, lb int64) float64 {
	if l <= 0 || lb <= 0 {
		return 0
	}
	if l == 1 {
		return message(ts, tb, lb)
	}
	return pipelined(ts, tb, l, lb, PacketSize(ts, tb, l, lb))
}

// pipelined is the time of lb bytes over l hops in packets of s bytes:
// the first packet needs l hops, each further one a hop more, each hop
// ts + s·tb: (l − 1 + ⌈lb/s⌉)·(ts + s·tb).
func pipelined(ts, tb float64, l int, lb, s int64) float64 {
	packets := ceilDiv(lb, s)
	return float64(int64(l-1)+packets) * (ts + float64(s)*tb)
}

// PacketSize is the packet size in 1..lb that minimises the pipelined time
// over l ≥ 2 hops, found the way the seed describes. The continuous optimum
// of f(S) = (l−1 + lb/S)(ts + S·tb) is S* = sqrt(lb·ts / ((l−1)·tb))
// (the derivative (l−1)·tb − lb·ts/S² vanishes there and grows). The search
// starts at S' = ⌊S*⌋ (1 if 0) and keeps it when both integer neighbours
// are no better; otherwise it walks in the improving direction until the
// time rises again.
//
// ⌈lb/S⌉ makes the time a step function of S: with k packets it grows with
// S, so walking down the time falls to the lowest S of each step,
// ⌈lb/k⌉; the walk jumps there instead of taking a unit step at a time
// (the same result, without O(lb) evaluations). Walking up improves only by
// crossing into a step of fewer packets, which a unit step does.
func PacketSize(ts, tb float64, l int, lb int64) int64 {
	if lb <= 1 {
		return 1
	}
	var s0 int64
	switch {
	case tb <= 0:
		s0 = lb // bytes are free: one packet
	case ts <= 0:
		s0 = 1 // start-ups are free: the finest pipeline
	default:
		x := math.Sqrt(float64(lb) * ts / (float64(l-1) * tb))
		s0 = int64(min(x, float64(lb)))
	}
	s0 = min(max(s0, 1), lb)
	t := func(s int64) float64 { return pipelined(ts, tb, l, lb, s) }
	best, tBest := s0, t(s0)
	for s := best - 1; s >= 1 && t(s) < tBest; s = best - 1 {
		best = ceilDiv(lb, ceilDiv(lb, s)) // lowest S with as many packets
		tBest = t(best)
	}
	if best != s0 {
		return best
	}
	for s := best + 1; s <= lb; s++ {
		tk := t(s)
		if tk >= tBest {
			break
		}
		best, tBest = s, tk
	}
	return best
}

func ceilDiv(a, b int64) int64 { return (a + b - 1) / b }
