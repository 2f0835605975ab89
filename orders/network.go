package orders

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"slices"
	"strconv"
	"time"

	"golang.org/x/sync/errgroup"
)

// NetworkFit is what ModeNetwork measured: the cluster of the
// coordinator's worker processes with its network as sim/ordersim prices
// a transfer between two nodes — the mean time of a transfer at each
// size (Points, which the simulator follows piece-wise), and the line
// fitted to them (Latency + bytes/Bandwidth) — and how far that line is
// from the points. An order's arguments and results travel from one
// worker to another through the coordinator's server, over two links,
// encoded by one and decoded by the other (pingPong times that). The
// Transport writes it as a cluster description file
// (sim/machine.Cluster, whose Hub it is: every transfer crosses the
// coordinator's server).
type NetworkFit struct {
	Nodes, Cores int
	Points       []TransferTime
	Latency      float64 // seconds
	Bandwidth    float64 // bytes per second; 0 when the line does not rise
	// Worst is the largest distance of a point from the line, relative
	// to the point: a single line describes the network when it is small.
	Worst float64
	// Relay is the share of each point's transfer that holds the
	// coordinator's server, at the same sizes (relayTimes): what one
	// more transfer costs when many are in flight at once. The rest of a
	// transfer's time is waiting (wake-ups, the peer's scheduler) that
	// other transfers overlap.
	Relay []TransferTime
	// OrderCost and WaitCost are the runtime's own time on the worker
	// processes' cores per order and per wait that suspends, in seconds
	// (probeRuntime); 0 when the workers could not time them.
	OrderCost, WaitCost float64
	// Ahead and AheadMax are the orders the coordinator starts ahead on
	// a busy core in the runs timed, at first and at most (Config.Ahead),
	// as the simulator is to follow them.
	Ahead, AheadMax int
}

// TransferTime is the mean time of a transfer of a value of Bytes from
// one worker to another, in seconds.
type TransferTime struct {
	Bytes   int64
	Seconds float64
}

// networkSizes are the message sizes timed, and networkReps the round
// trips timed at each size from each worker, or with it (after one
// untimed).
var networkSizes = []int64{0, 1 << 10, 16 << 10, 64 << 10, 128 << 10, 1 << 20, 4 << 20}

const networkReps = 7

// calibrateNetwork times transfers between the workers of a run of cfg
// through t, fits the simulator's cost and writes the cluster
// description file (Transport.WriteNetwork) to cfg's output.
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
	fit.Ahead, fit.AheadMax = s.pool.ahead, s.pool.aheadMax
	if fit.OrderCost, fit.WaitCost, err = s.probeRuntime(ctx, fit.Points[0].Seconds); err != nil {
		return nil, err
	}
	out, closeOut, err := cfg.output()
	if err != nil {
		return nil, err
	}
	err = t.WriteNetwork(out, fit)
	rep := &Summary{Mode: ModeNetwork, Workers: s.procs, Elapsed: time.Since(start), Network: fit}
	return rep, errors.Join(err, closeOut())
}

// pingPong times the round trips and fits them. A point is what a
// transfer from one worker to another pays: an encoding, two links
// through the coordinator's server, a decoding. With two workers or more
// it is half a round trip from a worker to the next and back (pairTimes),
// the path an order's arguments and results take; with one, a round trip
// between the coordinator and the worker, which crosses two links too
// (coordinatorTimes).
func (s *session) pingPong(ctx context.Context) (*NetworkFit, error) {
	var points []TransferTime
	for _, size := range networkSizes {
		var times []float64
		var err error
		if len(s.nodes) > 1 {
			times, err = s.pairTimes(ctx, size)
		} else {
			times, err = s.coordinatorTimes(ctx, size)
		}
		if err != nil {
			return nil, err
		}
		// The mean, not the median: a run's time is a sum of transfers,
		// the slow ones included (a collection, a page fault).
		var sum float64
		for _, t := range times {
			sum += t
		}
		points = append(points, TransferTime{Bytes: size, Seconds: sum / float64(len(times))})
	}
	fit := &NetworkFit{Nodes: s.procs, Points: points}
	fit.Latency, fit.Bandwidth, fit.Worst = fitLine(points)
	if len(s.nodes) > 1 {
		relay, err := s.relayTimes(ctx, points)
		if err != nil {
			return nil, err
		}
		fit.Relay = relay
	}
	return fit, nil
}

// relayStream returns how many round trips of values of size bytes a
// timed stream keeps in flight at once (streamTimes): enough that the
// server always has a message to relay, 16 for small values; for large
// ones as many as make about relayStreamBytes, 2 at least. With 16 values
// of 4 MB in flight on links of 100 Mbit/s (the network check,
// orders/netlab) the calibration had not ended after 9 minutes, its
// connections idle.
func relayStream(size int64) int {
	if size <= 0 {
		return 16
	}
	return int(min(max(relayStreamBytes/size, 2), 16))
}

const (
	relayStreamBytes = 1 << 20
	// relayReps is how many streams are timed at each size, after an
	// untimed one: a stream is many round trips already.
	relayReps = 3
)

// relayTimes times, at each size of points, streams of round trips in
// flight at once between the first two workers (node.timePeer), and
// returns the share of each transfer that the coordinator's server holds
// (NetworkFit.Relay): the median time of a stream per round trip, which
// is two transfers each over the server's two links, the simulator's
// hub, which relay one transfer each at once; at most the point's time.
func (s *session) relayTimes(ctx context.Context, points []TransferTime) ([]TransferTime, error) {
	from, to := s.nodes[0], s.nodes[1]
	var relay []TransferTime
	for _, p := range points {
		k := relayStream(p.Bytes)
		times, err := s.peerTimes(ctx, from, to, p.Bytes, k)
		if err != nil {
			return nil, err
		}
		slices.Sort(times)
		perTrip := times[(len(times)-1)/2] / float64(k)
		relay = append(relay, TransferTime{Bytes: p.Bytes, Seconds: min(perTrip, p.Seconds)})
	}
	return relay, nil
}

// coordinatorTimes times networkReps round trips of a value of size
// bytes between the coordinator and each worker, after an untimed one:
// the worker decodes it and sends it back as it came.
func (s *session) coordinatorTimes(ctx context.Context, size int64) ([]float64, error) {
	var times []float64
	for _, n := range s.nodes {
		rts, err := roundTrips(ctx, s.conn, n.inbox, size, false)
		if err != nil {
			return nil, fmt.Errorf("orders: timing the network to worker %d: %w", n.index, err)
		}
		times = append(times, rts...)
	}
	return times, nil
}

// pairTimes asks each worker to time networkReps round trips of a value
// of size bytes with the next worker (the last with the first), after an
// untimed one (node.timePeer), and returns the half of each: a round
// trip between two workers is two transfers.
func (s *session) pairTimes(ctx context.Context, size int64) ([]float64, error) {
	var times []float64
	for i, n := range s.nodes {
		rts, err := s.peerTimes(ctx, n, s.nodes[(i+1)%len(s.nodes)], size, 0)
		if err != nil {
			return nil, err
		}
		for _, rt := range rts {
			times = append(times, rt/2)
		}
	}
	return times, nil
}

// peerTimes asks worker from to time round trips of a value of size bytes
// with worker to (node.timePeer), one at a time, or with stream of them
// in flight at once when stream > 0, and returns the times it answers.
func (s *session) peerTimes(ctx context.Context, from, to *member, size int64, stream int) ([]float64, error) {
	ask := message(from.inbox, nil, hPingPeer, to.inbox, hBytes, size)
	if stream > 0 {
		ask.Header[hStream] = strconv.Itoa(stream)
	}
	m, err := s.conn.Request(ctx, ask)
	if err == nil && m.Header[hWhy] != "" {
		err = errors.New(m.Header[hWhy])
	}
	if err != nil {
		return nil, fmt.Errorf("orders: timing the network from worker %d to worker %d: %w", from.index, to.index, err)
	}
	times, err := decode1[[]float64](m.Data)
	if err != nil {
		return nil, fmt.Errorf("orders: worker %d's round trips: %w", from.index, err)
	}
	return times, nil
}

// fitLine fits seconds = latency + bytes/bandwidth to the points by least
// squares of the relative errors (a small message's time counts as much
// as a large one's), and returns the largest distance of a point from
// the line relative to the point. The simulator follows the points
// themselves; the line is for the DVM's terms, reports and people.
func fitLine(ps []TransferTime) (latency, bandwidth, worst float64) {
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

// timePeer answers the coordinator's request m (pairTimes, relayTimes):
// it times networkReps round trips of a value of m's Bytes with the
// worker at m's PingPeer inbox, after an untimed one, and answers with
// their times in seconds. The value is encoded as an argument is and
// decoded each way: a round trip is two transfers. With m's Stream, each
// time is of that many round trips in flight at once (streamTimes).
func (n *node) timePeer(m *Message) {
	size, err := strconv.ParseInt(m.Header[hBytes], 10, 64)
	stream := 0
	if err == nil && m.Header[hStream] != "" {
		stream, err = strconv.Atoi(m.Header[hStream])
	}
	var times []float64
	switch {
	case err != nil:
		err = fmt.Errorf("round trips of %q bytes, %q at once", m.Header[hBytes], m.Header[hStream])
	case stream > 0:
		times, err = streamTimes(n.ctx, n.conn, m.Header[hPingPeer], size, stream)
	default:
		times, err = roundTrips(n.ctx, n.conn, m.Header[hPingPeer], size, true)
	}
	var data []byte
	if err == nil {
		data, err = encode1(times)
	}
	r := &Message{Data: data}
	if err != nil {
		r = message("", nil, hWhy, err.Error())
	}
	if err := respond(n.conn, m, r); err != nil {
		n.fail(err)
	}
}

// roundTrips times networkReps round trips of a value of size bytes
// through c to the worker at inbox, after an untimed one: encoded, sent,
// and answered as it came (pong), or, when encoded, encoded again there
// and decoded here.
func roundTrips(ctx context.Context, c Conn, inbox string, size int64, encoded bool) ([]float64, error) {
	value := make([]byte, size)
	ping := "true"
	if encoded {
		ping = pingEncoded
	}
	var times []float64
	for rep := range networkReps + 1 {
		t0 := time.Now()
		data, err := encode1(value)
		if err != nil {
			return nil, err
		}
		back, err := c.Request(ctx, message(inbox, data, hPing, ping))
		if err != nil {
			return nil, err
		}
		if err := checkPong(back.Data, data, value, encoded); err != nil {
			return nil, err
		}
		if rep > 0 {
			times = append(times, time.Since(t0).Seconds())
		}
	}
	return times, nil
}

// streamTimes times relayReps streams of k round trips of a value of
// size bytes in flight at once through c to the worker at inbox, after an
// untimed one, each answered as it came: what the server between them
// relays when it always has a message waiting.
func streamTimes(ctx context.Context, c Conn, inbox string, size int64, k int) ([]float64, error) {
	value := make([]byte, size)
	data, err := encode1(value)
	if err != nil {
		return nil, err
	}
	var times []float64
	for rep := range relayReps + 1 {
		t0 := time.Now()
		g, gctx := errgroup.WithContext(ctx)
		for range k {
			g.Go(func() error {
				back, err := c.Request(gctx, message(inbox, data, hPing, "true"))
				if err != nil {
					return err
				}
				return checkPong(back.Data, data, value, false)
			})
		}
		if err := g.Wait(); err != nil {
			return nil, err
		}
		if rep > 0 {
			times = append(times, time.Since(t0).Seconds())
		}
	}
	return times, nil
}

// checkPong checks the answer to a round trip of value, sent as data:
// data as it went, or, encoded, value encoded again.
func checkPong(answer, data, value []byte, encoded bool) error {
	if !encoded {
		if len(answer) != len(data) {
			return fmt.Errorf("the worker answered %d bytes to %d", len(answer), len(data))
		}
		return nil
	}
	v, err := decode1[[]byte](answer)
	if err != nil {
		return fmt.Errorf("the worker's answer: %w", err)
	}
	if len(v) != len(value) {
		return fmt.Errorf("the worker answered a value of %d bytes to %d", len(v), len(value))
	}
	return nil
}

// pong answers a round trip m of ModeNetwork: the value decoded, and sent
// back as it came or encoded again (hPing).
func (n *node) pong(m *Message) error {
	v, err := decode1[[]byte](m.Data)
	if err != nil {
		return err
	}
	data := m.Data
	if m.Header[hPing] == pingEncoded {
		if data, err = encode1(v); err != nil {
			return err
		}
	}
	return respond(n.conn, m, &Message{Data: data})
}

// probeRun is about how long one run of probeRuntime's takes, and
// probeTime how long it goes on repeating them: about two seconds of a
// network mode that times messages for longer, whatever the links.
const (
	probeRun  = 250 * time.Millisecond
	probeTime = 2 * time.Second
)

// probeOrders returns how many empty orders each run of probeRuntime
// makes, on a network whose empty transfer takes empty seconds, so that a
// run takes about probeRun: an order takes about two messages' time, its
// batch's others in flight meanwhile: about 900 on this machine's
// loopback, 1,024 at most, 64 at least (about a second on links of 2 ms).
func probeOrders(empty float64) int {
	n := int(probeRun.Seconds() / (2 * max(empty, 1e-6)))
	return min(max(n, 64), 1024)
}

// probeReps is how many times at most probeRuntime times each of its two
// runs.
const probeReps = 5

// probeRuntime returns the runtime's own cost per order and per wait on
// the session's worker processes, in seconds: the CPU time that the run's
// processes spend on getBatches, whose orders do nothing, got first first
// and last first, against its orders and the suspensions the coordinator
// counted in each (splitWaits), the median of up to probeReps timings of
// each (as many as probeTime allows, one at least) after one not timed.
// It is what an order and a wait cost the cores beyond the orders' work:
// starts, ends and results encoded, sent, relayed and decoded, every
// process's scheduler woken, where in one process an order costs about a
// microsecond (timeRuntime). The workers' CPU counts whole; the
// coordinator's (it runs the server that relays every message) in the
// share of the workers on its computer, whose cores it takes. The
// simulator charges them on the core an order or a wait leaves
// (machine.Cluster.OrderCost). Both are 0 when a process cannot read its
// CPU time.
func (s *session) probeRuntime(ctx context.Context, empty float64) (order, wait float64, err error) {
	host, _ := os.Hostname()
	if _, ok, err := s.processesCPU(ctx, host); !ok || err != nil {
		return 0, 0, err // the trace's costs are charged
	}
	n := probeOrders(empty)
	c := s.coordinator
	suspended := func() int {
		c.mu.Lock()
		defer c.mu.Unlock()
		return c.suspended
	}
	// timed runs getEach (each) or getBatches got last first once and
	// returns its CPU time and waits.
	timed := func(each bool) (cpu float64, waits int, err error) {
		name, args := getBatches.name, []byte(nil)
		if each {
			name = getEach.name
			args, err = Call(getEach, n).args()
		} else {
			args, err = Call2(getBatches, n, true).args()
		}
		if err != nil {
			return 0, 0, err
		}
		before, _, err := s.processesCPU(ctx, host)
		if err != nil {
			return 0, 0, err
		}
		w0 := suspended()
		if _, err := s.runMain(ctx, name, args); err != nil {
			return 0, 0, fmt.Errorf("orders: timing the runtime on the workers: %w", err)
		}
		waits = suspended() - w0
		after, _, err := s.processesCPU(ctx, host)
		return after - before, waits, err
	}
	start := time.Now()
	if _, _, err := timed(false); err != nil {
		return 0, 0, err
	}
	var orders, waits []float64
	for len(orders) < probeReps && (len(orders) == 0 || time.Since(start) < probeTime) {
		cpuEach, waitsEach, err := timed(true)
		if err != nil {
			return 0, 0, err
		}
		cpuFew, waitsFew, err := timed(false)
		if err != nil {
			return 0, 0, err
		}
		o, w := splitWaits(n+1, cpuEach, waitsEach, cpuFew, waitsFew) // its main order among them
		orders, waits = append(orders, o), append(waits, w)
	}
	return median(orders), median(waits), nil
}

// splitWaits returns the cost per order and per wait from two runs of n
// orders each, of cpu1 and cpu2 seconds with w1 and w2 waits: cpu = n·order
// + w·wait in both. With as many waits in both it tells no wait from an
// order, and prices the waits at nothing. A machine too noisy to tell a
// cost from zero gets a nanosecond, the least a calibration row may hold.
func splitWaits(n int, cpu1 float64, w1 int, cpu2 float64, w2 int) (order, wait float64) {
	if w1 != w2 {
		wait = max((cpu1-cpu2)/float64(w1-w2), 1e-9)
	}
	return max((cpu2-float64(w2)*wait)/float64(n), 1e-9), wait
}

// processesCPU is the CPU time of the run's processes so far, in seconds,
// as probeRuntime counts it: every worker process's, as each tells it
// (node.tellCPU), and the coordinator's in the share of the workers on
// host, its computer; ok is false when a process cannot read its own.
func (s *session) processesCPU(ctx context.Context, host string) (cpu float64, ok bool, err error) {
	local := 0
	for _, n := range s.nodes {
		m, err := s.conn.Request(ctx, message(n.inbox, nil, hCPU, "true"))
		if err != nil {
			return 0, false, fmt.Errorf("orders: asking worker %d for its CPU time: %w", n.index, err)
		}
		if m.Header[hWhy] != "" {
			return 0, false, nil
		}
		w, err := decode1[workerCPU](m.Data)
		if err != nil {
			return 0, false, fmt.Errorf("orders: worker %d's CPU time: %w", n.index, err)
		}
		cpu += w.CPU.Seconds()
		if w.Host == host {
			local++
		}
	}
	own, ok := processCPU()
	return cpu + own.Seconds()*float64(local)/float64(len(s.nodes)), ok, nil
}

// workerCPU is a worker process's answer to hCPU: its CPU time so far and
// the name of its computer.
type workerCPU struct {
	CPU  time.Duration
	Host string
}

// tellCPU answers the coordinator's request m (processesCPU) with the
// process's CPU time so far, or with Why when it cannot be read.
func (n *node) tellCPU(m *Message) {
	r := message("", nil, hWhy, "no CPU time on this system")
	if cpu, ok := processCPU(); ok {
		host, _ := os.Hostname()
		data, err := encode1(workerCPU{CPU: cpu, Host: host})
		if err != nil {
			n.fail(err)
			return
		}
		r = &Message{Data: data}
	}
	if err := respond(n.conn, m, r); err != nil {
		n.fail(err)
	}
}

// median returns the median of xs (sorted in place).
func median(xs []float64) float64 {
	slices.Sort(xs)
	k := len(xs)
	return (xs[k/2] + xs[(k-1)/2]) / 2
}
