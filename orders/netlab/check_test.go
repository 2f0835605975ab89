//go:build linux

package netlab

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/presage-dvm/presage/orders"
	"github.com/presage-dvm/presage/orders/calibration"
	"github.com/presage-dvm/presage/orders/procstest"
	"github.com/presage-dvm/presage/sim/ordersim"
	"github.com/presage-dvm/presage/sim/ordertrace"
)

// The network check: the simulator, given the network as run mode's
// network calibration measured it (orders.ModeNetwork), predicts the
// run of a program whose time is transfers, with its coordinator and two
// workers on three computers joined by links of a known delay and rate.

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

func TestNetworkModelHoldsOnSlowLinks(t *testing.T) {
	in := relayInput{Steps: 8, Sizes: []int{64 << 10, 512 << 10}}
	procstest.Main(relayMain(in))
	if e := checkNetwork(t, Link{Delay: 2 * time.Millisecond, Rate: 100e6}, in); math.Abs(e) > 0.15 {
		t.Errorf("prediction %+.1f%% off the measured run, want within 15%%", e*100)
	}
}

// On links of a gigabit the runtime's own cost of a message, not the
// link, sets the time (docs/orders.md, "The network, timed"): the test
// checks that the calibration sees the link, and reports the prediction.
func TestNetworkCalibrationSeesFastLinks(t *testing.T) {
	in := relayInput{Steps: 24, Sizes: []int{64 << 10, 1 << 20}}
	procstest.Main(relayMain(in))
	checkNetwork(t, Link{Delay: 200 * time.Microsecond, Rate: 1e9}, in)
}

// checkNetwork calibrates the network of a star of two workers on links
// like l, checks that the calibration sees the links, runs relay on it
// three times, and returns how far the simulator's prediction of relay's
// trace, recorded here, is from the median makespan (relative).
func checkNetwork(t *testing.T, l Link, in relayInput) float64 {
	s := star(t, 2, l)
	out := filepath.Join(t.TempDir(), "network.json")
	runOn(t, s, "network", out)
	var fit orders.NetworkFit
	b, err := os.ReadFile(out)
	if err == nil {
		err = json.Unmarshal(b, &fit)
	}
	if err != nil {
		t.Fatal(err)
	}
	// A transfer crosses two links, through the coordinator: it cannot
	// take less than two delays, nor go faster than half the rate.
	if fit.Latency < 2*l.Delay.Seconds() || fit.Bandwidth > l.Rate/8/2 {
		t.Errorf("calibrated latency %.3g ms and bandwidth %.3g MB/s on links of %v: want at least %.3g ms and at most %.3g MB/s",
			fit.Latency*1e3, fit.Bandwidth/1e6, l, 2*l.Delay.Seconds()*1e3, l.Rate/8/2/1e6)
	}
	var runs []float64
	for range 3 {
		runs = append(runs, runOn(t, s, "run", ""))
	}
	slices.Sort(runs)
	measured := runs[1]
	predicted := predictRelay(t, in, ordersim.Cluster{Nodes: 2, Latency: fit.Latency, Bandwidth: fit.Bandwidth})
	e := (predicted - measured) / measured
	t.Logf("links of %v by %s: calibrated latency %.3g ms, bandwidth %.3g MB/s (worst point %.0f%% off the line); relay measured %.3f s (runs %.3f), predicted %.3f s: %+.1f%%",
		l, s.Shaper, fit.Latency*1e3, fit.Bandwidth/1e6, fit.Worst*100, measured, runs, predicted, e*100)
	return e
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

// predictRelay records relay here and simulates its trace on cl.
func predictRelay(t *testing.T, in relayInput, cl ordersim.Cluster) float64 {
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
	r, err := tr.Simulate(cl, ordersim.Options{NoCriticalPath: true})
	if err != nil {
		t.Fatal(err)
	}
	return r.Makespan
}
