//go:build linux

package netlab

import (
	"bytes"
	"cmp"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/presage-dvm/presage/orders"
	"github.com/presage-dvm/presage/orders/calibration"
	"github.com/presage-dvm/presage/orders/cluster"
	"github.com/presage-dvm/presage/orders/procstest"
	"github.com/presage-dvm/presage/sim/machine"
	"github.com/presage-dvm/presage/sim/ordersim"
	"github.com/presage-dvm/presage/sim/ordertrace"
)

// The network check: the simulator, given the cluster file run mode's
// network calibration writes (orders.ModeNetwork), predicts within 15%
// the run of a program whose time is transfers, with its coordinator and
// two workers on three computers joined by links of a known delay and
// rate.

// relayInput is what relay passes along: Steps orders in a row, the
// arguments and result of order i of Sizes[i % len(Sizes)] bytes.
type relayInput struct {
	Steps int
	Sizes []int
}

// relay makes its orders one after the other, each once it has the
// result of the one before: every byte crosses the network twice an
// order, there and back, with nothing else on the links.
var relay = orders.Proc("relay", func(c *orders.Ctx, in relayInput) (int, error) {
	total := 0
	for i := range in.Steps {
		b, err := orders.Make(c, echo, make([]byte, in.Sizes[i%len(in.Sizes)])).Get(c)
		if err != nil {
			return 0, err
		}
		total += len(b)
	}
	return total, nil
})

var echo = orders.Proc("echo", func(c *orders.Ctx, b []byte) ([]byte, error) { return b, nil })

// The test's child processes learn their part from the environment.
const (
	roleEnv = "PRESAGE_NETLAB_ROLE" // "network" or "run" for the coordinator, "" for a worker
	addrEnv = "PRESAGE_NETLAB_ADDR" // the address the coordinator listens at, or the worker joins
	outEnv  = "PRESAGE_NETLAB_OUT"  // where the network calibration goes
	port    = "4222"
)

// relayMain is the program of the child processes: a coordinator of two
// workers prints its run's makespan.
func relayMain(in relayInput) func() int {
	return func() int {
		cfg := orders.Config{Join: os.Getenv(addrEnv)}
		switch role := os.Getenv(roleEnv); role {
		case "network", "run":
			cfg = orders.Config{Mode: orders.Mode(role), Procs: 2, Listen: os.Getenv(addrEnv), Out: os.Getenv(outEnv)}
		}
		_, rep, err := orders.Main(cfg, relay, in)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		fmt.Println(rep.Elapsed.Seconds())
		return 0
	}
}

// The slow links' calibration takes 30 s, and a burst of the host's
// noise hardly moves the mean of round trips of 10 ms to 1.4 s: one. The
// fast links' takes 2 s, and a burst of a few milliseconds moves the mean
// of 1–80 ms round trips by a fifth: five, each beside a run of relay.
func TestNetworkModelHoldsOnSlowLinks(t *testing.T) {
	in := relayInput{Steps: 16, Sizes: []int{64 << 10, 512 << 10}}
	procstest.Main(relayMain(in))
	checkNetwork(t, Link{Delay: 2 * time.Millisecond, Rate: 100e6}, in, 1)
}

func TestNetworkModelHoldsOnFastLinks(t *testing.T) {
	in := relayInput{Steps: 48, Sizes: []int{64 << 10, 1 << 20}}
	procstest.Main(relayMain(in))
	checkNetwork(t, Link{Delay: 200 * time.Microsecond, Rate: 1e9}, in, relayRuns)
}

// relayRuns is how many times the check runs relay.
const relayRuns = 5

// checkNetwork calibrates the network of a star of two workers on links
// like l calibrations times, each before one of relay's runs so that a
// phase of the host falls on both alike, checks that every calibration
// sees the links, and checks the simulator's prediction of relay's trace,
// recorded here, on the quietest calibration (quietest) against the best
// run: within 15%. Noise only adds time, to a run and to a round trip:
// both sides are taken at their least disturbed.
func checkNetwork(t *testing.T, l Link, in relayInput, calibrations int) {
	s := star(t, 2, l)
	t.Setenv(cluster.TokenEnv, "netlab-token-shared-by-the-star-0123456789") // the coordinator and its workers, started apart
	tr := recordRelay(t, in)
	var cals []machine.Cluster
	var runs []float64
	for i := range max(calibrations, relayRuns) {
		if i < calibrations {
			out := filepath.Join(t.TempDir(), fmt.Sprintf("cluster%d.json", i))
			runOn(t, s, "network", out)
			cl, err := machine.ReadClusterFile(out)
			if err != nil {
				t.Fatal(err)
			}
			checkSeesLinks(t, cl, l)
			cals = append(cals, cl)
		}
		if i < relayRuns {
			runs = append(runs, runOn(t, s, "run", ""))
		}
	}
	for i, cl := range cals {
		t.Logf("calibration %d: round trips %v, the server's share %v, the runtime %.0f µs per order, %.0f µs per wait: relay predicted %.3f s, run beside it %.3f s",
			i, cl.Messages, cl.Relay, cl.OrderCost*1e6, cl.WaitCost*1e6, makespan(t, tr, ordersim.Cluster(cl)), runs[i])
	}
	cl := quietest(cals)
	measured := slices.Min(runs) // the best run, as the reality check takes
	predicted := makespan(t, tr, ordersim.Cluster(cl))
	line, free := cl, cl
	line.Messages = nil
	free.OrderCost, free.WaitCost = 0, 0
	e := (predicted - measured) / measured
	t.Logf("links of %v by %s: the quietest round trips %v; as a line, latency %.3g ms, bandwidth %.3g MB/s; the runtime %.0f µs per order, %.0f µs per wait",
		l, s.Shaper, cl.Messages, cl.Latency*1e3, cl.Bandwidth/1e6, cl.OrderCost*1e6, cl.WaitCost*1e6)
	t.Logf("relay measured %.3f s (best of %.3f), predicted %.3f s (%+.1f%%; by the line alone %.3f s; without the runtime's costs %.3f s)",
		measured, runs, predicted, e*100, makespan(t, tr, ordersim.Cluster(line)), makespan(t, tr, ordersim.Cluster(free)))
	if math.Abs(e) > 0.15 {
		t.Errorf("predicted %.3f s against %.3f s measured: %+.1f%%, want within 15%%", predicted, measured, e*100)
	}
}

// checkSeesLinks checks that a calibration sees links like l: a transfer
// crosses two links, through the coordinator, so it cannot take less
// than two delays, nor go faster than half the rate.
func checkSeesLinks(t *testing.T, cl machine.Cluster, l Link) {
	if cl.Latency < 2*l.Delay.Seconds() || cl.Bandwidth > l.Rate/8/2 {
		t.Errorf("calibrated latency %.3g ms and bandwidth %.3g MB/s on links of %v: want at least %.3g ms and at most %.3g MB/s",
			cl.Latency*1e3, cl.Bandwidth/1e6, l, 2*l.Delay.Seconds()*1e3, l.Rate/8/2/1e6)
	}
}

// quietest returns the network the calibrations cals saw at its least
// disturbed: each message size's transfer time and the runtime's costs at
// their least over the calibrations, the line of the calibration whose
// round trips sum to the least. Noise only adds time, and a burst falls
// on one size's round trips of one calibration, not on the others'.
func quietest(cals []machine.Cluster) machine.Cluster {
	sum := func(cl machine.Cluster) (s float64) {
		for _, p := range cl.Messages {
			s += p.Seconds
		}
		return s
	}
	q := slices.MinFunc(cals, func(a, b machine.Cluster) int { return cmp.Compare(sum(a), sum(b)) })
	q.Messages = slices.Clone(q.Messages)
	for _, cl := range cals {
		for i, p := range cl.Messages {
			q.Messages[i].Seconds = min(q.Messages[i].Seconds, p.Seconds)
		}
		q.OrderCost, q.WaitCost = min(q.OrderCost, cl.OrderCost), min(q.WaitCost, cl.WaitCost)
	}
	return q
}

// runOn runs relay in role on the star: the coordinator at the hub, a
// worker at each spoke; it returns the makespan the coordinator printed.
func runOn(t *testing.T, s *Star, role, out string) float64 {
	t.Helper()
	inNamespace := func(ns string) func(string, ...string) *exec.Cmd {
		return func(name string, args ...string) *exec.Cmd { return s.Command(ns, name, args...) }
	}
	coord := procstest.Command(t, inNamespace(s.Hub))
	coord.Env = append(coord.Env, roleEnv+"="+role, addrEnv+"=:"+port, outEnv+"="+out)
	var stdout, stderr bytes.Buffer
	coord.Stdout, coord.Stderr = &stdout, &stderr
	if err := coord.Start(); err != nil {
		t.Fatal(err)
	}
	var workers []*exec.Cmd
	for i, ns := range s.Spokes {
		w := procstest.Command(t, inNamespace(ns))
		w.Env = append(w.Env, addrEnv+"="+s.HubAddr(i)+":"+port)
		w.Stderr = &stderr
		if err := w.Start(); err != nil {
			t.Fatal(err)
		}
		workers = append(workers, w)
	}
	err := coord.Wait()
	for _, w := range workers {
		if werr := w.Wait(); werr != nil && err == nil {
			err = fmt.Errorf("a worker: %w", werr)
		}
	}
	if err != nil {
		t.Fatalf("%s: %v: %s", role, err, stderr.String())
	}
	v, err := strconv.ParseFloat(strings.TrimSpace(stdout.String()), 64)
	if err != nil {
		t.Fatalf("%s printed %q: %v", role, stdout.String(), err)
	}
	return v
}

// recordRelay records relay here and prepares its trace to simulate.
func recordRelay(t *testing.T, in relayInput) *ordersim.Prepared {
	var trace bytes.Buffer
	// relay marks no block: its orders' own time is measured, not priced.
	cfg := orders.Config{Mode: orders.ModeRecord, Program: "relay", Constants: calibration.Constants{}, Machine: "this", Output: &trace}
	if _, _, err := orders.Main(cfg, relay, in); err != nil {
		t.Fatal(err)
	}
	tr, err := ordersim.Prepare(func() (ordertrace.Source, error) {
		return ordertrace.NewReader(bytes.NewReader(trace.Bytes()), "relay.jsonl")
	})
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

// makespan simulates tr on cl.
func makespan(t *testing.T, tr *ordersim.Prepared, cl ordersim.Cluster) float64 {
	r, err := tr.Simulate(cl, ordersim.Options{NoCriticalPath: true})
	if err != nil {
		t.Fatal(err)
	}
	return r.Makespan
}

func TestQuietestTakesEachSizeAtItsLeast(t *testing.T) {
	pts := func(s ...float64) []machine.MessagePoint {
		var ps []machine.MessagePoint
		for i, v := range s {
			ps = append(ps, machine.MessagePoint{Bytes: int64(i) << 20, Seconds: v})
		}
		return ps
	}
	cals := []machine.Cluster{
		{Latency: 1, Messages: pts(1, 9, 4), OrderCost: 3, WaitCost: 1},
		{Latency: 2, Messages: pts(2, 3, 5), OrderCost: 1, WaitCost: 2},
		{Latency: 3, Messages: pts(3, 6, 2), OrderCost: 2, WaitCost: 3},
	}
	q := quietest(cals)
	want := machine.Cluster{Latency: 2, Messages: pts(1, 3, 2), OrderCost: 1, WaitCost: 1}
	if !reflect.DeepEqual(q, want) {
		t.Errorf("quietest = %+v, want %+v", q, want)
	}
	if cals[1].Messages[0].Seconds != 2 {
		t.Error("quietest changed a calibration's points")
	}
}
