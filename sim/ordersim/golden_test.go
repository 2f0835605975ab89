package ordersim

import (
	"bytes"
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/presage-dvm/presage/ingest/ordergen"
	"github.com/presage-dvm/presage/orders/ordersched"
	"github.com/presage-dvm/presage/sim/ordertrace"
)

var update = flag.Bool("update", false, "rewrite testdata/golden.json from this simulator")

// goldenPrediction is what TestGolden keeps of a simulation: everything
// it predicts but its peaks of memory, the nodes, the critical path and
// every order's schedule as digests.
type goldenPrediction struct {
	Makespan     float64
	Orders       int64
	Total        NodeStats
	Nodes        string // sha256 of every node's stats
	NodesUsed    int
	Procs        []ProcStats
	PathSteps    int
	CriticalPath string // sha256 of the critical path's steps
	Schedules    string // sha256 of the orders' schedules, in the order reported
}

// goldenShapes are one small trace of every generated shape, with
// transfers that cost.
var goldenShapes = map[string]ordergen.Options{
	"dac":      {Shape: ordergen.DivideAndConquer, Depth: 9, Leaf: 1e-3, Split: 1e-4, Combine: 2e-4, Jitter: 0.3, ArgBytes: 4096, ResultBytes: 2048, Seed: 3},
	"pipeline": {Shape: ordergen.Pipeline, Stages: 4, Items: 200, Leaf: 1e-3, Feed: 1e-4, Jitter: 0.3, ArgBytes: 1024, ResultBytes: 1024, Seed: 5},
	"master":   {Shape: ordergen.MasterWorker, Workers: 16, Rounds: 40, Leaf: 1e-3, Feed: 1e-5, Combine: 1e-4, Jitter: 0.3, ResultBytes: 512, Seed: 7},
}

// TestGolden: the simulator predicts, bit for bit, what it predicted when
// testdata/golden.json was written (go test -run TestGolden -update), for
// every shape, scheduler, resumption rule and a few cluster sizes; a
// change of representation or speed must not change a prediction.
func TestGolden(t *testing.T) {
	got := map[string]goldenPrediction{}
	for shape, gen := range goldenShapes {
		var text bytes.Buffer
		if err := ordergen.Generate(&text, gen); err != nil {
			t.Fatal(err)
		}
		lines := func() (ordertrace.Source, error) { return ordertrace.NewReader(bytes.NewReader(text.Bytes()), shape) }
		tr, err := Prepare(lines)
		if err != nil {
			t.Fatal(err)
		}
		// The same trace packed as a store keeps it, read by Scan.
		packed, err := Prepare(packedTrace(t, lines))
		if err != nil {
			t.Fatal(err)
		}
		for _, sched := range ordersched.All {
			for _, pin := range []bool{false, true} {
				for _, nodes := range []int{1, 5, 64} {
					cl := Cluster{Nodes: nodes, Cores: 2, Latency: 1e-5, Bandwidth: 1e8}
					key := fmt.Sprintf("%s/%s/pin=%v/%d", shape, sched, pin, nodes)
					opt := Options{Scheduler: sched, Pin: pin, ByProc: true, Seed: 11}
					got[key] = goldenRun(t, tr, cl, opt)
					if p := goldenRun(t, packed, cl, opt); digest(p) != digest(got[key]) {
						t.Errorf("%s: the packed trace predicts otherwise", key)
					}
				}
			}
		}
	}
	path := filepath.Join("testdata", "golden.json")
	if *update {
		data, _ := json.MarshalIndent(got, "", " ")
		if err := os.WriteFile(path, append(data, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var want map[string]goldenPrediction
	if err := json.Unmarshal(data, &want); err != nil {
		t.Fatal(err)
	}
	if len(want) != len(got) {
		t.Fatalf("%d predictions, the golden file has %d", len(got), len(want))
	}
	for key, w := range want {
		g, _ := json.Marshal(got[key])
		wj, _ := json.Marshal(w)
		if !bytes.Equal(g, wj) {
			t.Errorf("%s changed:\n got %s\nwant %s", key, g, wj)
		}
	}
}

// packedTrace packs the trace open returns in one chunk and returns how
// to open that chunk.
func packedTrace(t *testing.T, open func() (ordertrace.Source, error)) func() (ordertrace.Source, error) {
	src, err := open()
	if err != nil {
		t.Fatal(err)
	}
	p := ordertrace.NewPacker()
	data := ordertrace.StartChunk(nil, 1)
	for {
		o, err := src.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		data, _ = p.Append(data, nil, o)
	}
	return func() (ordertrace.Source, error) {
		u := ordertrace.NewUnpacker(p.Names())
		return u, u.Reset(data, nil)
	}
}

func goldenRun(t *testing.T, tr *Prepared, cl Cluster, opt Options) goldenPrediction {
	h := sha256.New()
	opt.OnOrder = func(o OrderResult) {
		b, _ := json.Marshal(o)
		h.Write(b)
	}
	r, err := tr.Simulate(cl, opt)
	if err != nil {
		t.Fatal(err)
	}
	return goldenPrediction{Makespan: r.Makespan, Orders: r.Orders, Total: r.Total, Nodes: digest(r.Nodes), NodesUsed: r.NodesUsed,
		Procs: r.Procs, PathSteps: len(r.CriticalPath), CriticalPath: digest(pathOf(r.CriticalPath)), Schedules: hex.EncodeToString(h.Sum(nil))}
}

// pathStep is a Step as the golden file was written, before steps had
// their Index.
type pathStep struct {
	Kind       StepKind
	Order      int64
	Proc       string
	Node       int
	Start, End float64
}

func pathOf(steps []Step) []pathStep {
	out := make([]pathStep, len(steps))
	for i, s := range steps {
		out[i] = pathStep{s.Kind, s.Order, s.Proc, s.Node, s.Start, s.End}
	}
	return out
}

// digest is the sha256 of v's JSON (which keeps every float bit for bit).
func digest(v any) string {
	b, _ := json.Marshal(v)
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// TestPathStepsKeepsTheLongest: with PathSteps, the path is the longest
// steps of the whole one (of equal lengths, the earlier), in path order,
// and nothing else changes.
func TestPathStepsKeepsTheLongest(t *testing.T) {
	var text bytes.Buffer
	if err := ordergen.Generate(&text, goldenShapes["pipeline"]); err != nil {
		t.Fatal(err)
	}
	tr, err := Prepare(func() (ordertrace.Source, error) {
		return ordertrace.NewReader(bytes.NewReader(text.Bytes()), "pipeline")
	})
	if err != nil {
		t.Fatal(err)
	}
	cl := Cluster{Nodes: 4, Latency: 1e-5, Bandwidth: 1e8}
	whole, err := tr.Simulate(cl, Options{ByProc: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, keep := range []int{1, 7, 100, len(whole.CriticalPath), len(whole.CriticalPath) + 5} {
		r, err := tr.Simulate(cl, Options{ByProc: true, PathSteps: keep})
		if err != nil {
			t.Fatal(err)
		}
		want := slices.Clone(whole.CriticalPath)
		slices.SortStableFunc(want, func(a, b Step) int { return cmp.Compare(b.End-b.Start, a.End-a.Start) })
		want = want[:min(keep, len(want))]
		slices.SortFunc(want, func(a, b Step) int { return cmp.Compare(a.Index, b.Index) })
		if !slices.Equal(r.CriticalPath, want) || r.PathSteps != len(whole.CriticalPath) {
			t.Errorf("keep %d: %d steps of %d, want %d of %d", keep, len(r.CriticalPath), r.PathSteps, len(want), len(whole.CriticalPath))
		}
		r.CriticalPath, r.PathSteps = whole.CriticalPath, whole.PathSteps
		if digest(r) != digest(whole) {
			t.Errorf("keep %d changed the rest of the prediction", keep)
		}
	}
}
